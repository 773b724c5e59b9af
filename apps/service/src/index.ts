// Public API of @browsertask/service: the CLI entry and the composition pieces it is
// built from (useful to embed the service or to test it).
export { EXIT, main } from './cli.js';
export { commands, type Command } from './commands/index.js';
export {
  ENV_DEFAULTS,
  LOG_LEVELS,
  isLoopbackHost,
  readServiceConfig,
  type LogLevel,
  type ReadConfigOptions,
  type ReadConfigResult,
  type ServiceConfig,
} from './config.js';
export { ServiceError, type ServiceErrorCode } from './errors.js';
export { STARTER_FILES, writeStarterBundle } from './init-bundle.js';
export {
  createServiceLogger,
  noopLogger,
  type Logger,
  type ServiceLogger,
  type ServiceLoggerOptions,
} from './logger.js';
export { PUBLISHED_ENV_NAMES, publishedEnv } from './published-env.js';
export {
  createBundleZip,
  type CreateBundleZipOptions,
  type CreateBundleZipResult,
} from './bundle-zip.js';
export { checkBundle, type CheckBundleResult } from './check-bundle.js';
export {
  CONFIG_FILE_NAMES,
  configFileCandidates,
  loadBundleConfig,
  type BundleConfig,
  type BundleFiles,
  type ConfigFileName,
  type LoadBundleConfigOptions,
  type LoadBundleConfigResult,
} from './config-files.js';
export { formatProblem, type Problem } from './diagnostics.js';
export { startService, type RunningService, type StartServiceOptions } from './start-service.js';
