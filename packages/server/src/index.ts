// Public API of @browsertask/server.
export {
  createApp,
  createServer,
  DEFAULT_MAX_BODY_BYTES,
  type AppOptions,
  type BrowsertaskApp,
  type BrowsertaskServer,
  type ListenAddress,
} from './app.js';
export { ERROR_RESPONSES, errorResponseFor, type ErrorResponse } from './error-map.js';
export { ServerError, type ServerErrorCode } from './errors.js';
export { noopLogger, type Logger } from './logger.js';
export {
  assertStaticMounts,
  expandEnv,
  staticMountsSchema,
  validateStaticMounts,
  type MountDiagnostic,
  type StaticMount,
  type ValidateStaticMountsOptions,
} from './static-mounts.js';
export { toListingEntry } from './routes/tasks.js';
export type {
  HealthFn,
  InputDescriptor,
  PoolHealth,
  PublishFn,
  RunEvent,
  RunTask,
  RunTaskContext,
  TaskCatalogue,
  TaskListingEntry,
} from './types.js';
