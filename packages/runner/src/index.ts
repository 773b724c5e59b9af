// Public API of @browsertask/runner (see README.md).
export { ACTION_IMPLS } from './actions/index.js';
export { renderRecords } from './actions/data.js';
export { coerceParam, coerceParams } from './coerce.js';
export type {
  ActionImpl,
  BundleReader,
  EncodeOptions,
  LeasedWindow,
  RecorderApi,
  RunState,
  ScreencastLike,
  StepContext,
  WindowLease,
  WindowSource,
} from './context.js';
export { Deadline, isTimeoutError } from './deadline.js';
export { RunnerError, isRunnerError, type RunnerErrorCode } from './errors.js';
export {
  CollectingPublisher,
  noopPublisher,
  toSseEvent,
  type Publisher,
  type RunEvent,
  type TerminalEvent,
} from './events.js';
export { SESSION_RESET_MESSAGE, executeFlow, executeStep, isDeadTarget } from './execute-flow.js';
export { bindInputs } from './inputs.js';
export { noopLogger, type Logger } from './logger.js';
export { cleanBundlePath, resolveSafePath, type PathRoots } from './paths.js';
export { runRecordingsDir } from './recording.js';
export {
  createTaskRegistry,
  type LoadTaskFn,
  type LoadTaskResult,
  type TaskListingEntry,
  type TaskProblem,
  type TaskRegistry,
  type TaskRegistryOptions,
} from './registry.js';
export {
  Runner,
  createRecorder,
  type RunOptions,
  type RunOutcome,
  type RunnerOptions,
} from './runner.js';
export {
  lookupName,
  renderReturnValue,
  renderString,
  renderValue,
  stringifyValue,
  type TemplateScope,
} from './template.js';
