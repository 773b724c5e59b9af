// Public API of @browsertask/window-pool (see README.md).
export { detectBrowser, detectDisplay } from './detect-browser.js';
export { isDeadTargetError } from './dead-target.js';
export {
  PoolError,
  SessionResetError,
  SESSION_RESET_MESSAGE,
  type PoolErrorCode,
} from './errors.js';
export { SERVER_CHROMIUM_ARGS } from './internal/launch.js';
export type { Lease, PoolWindow, ReleaseOptions } from './lease.js';
export { noopLogger, type Logger } from './logger.js';
export {
  DEFAULT_POOL_TAG,
  PERSISTENT_SIZE_MESSAGE,
  poolConfigSchema,
  validatePoolConfig,
  type PoolConfig,
  type PoolConfigDiagnostic,
  type PoolConfigResult,
  type PoolSpec,
} from './pool-config.js';
export {
  WindowPools,
  type AcquireOptions,
  type PoolDetailedStats,
  type PoolStats,
  type WindowPoolEventMap,
  type WindowPoolsOptions,
} from './window-pools.js';
