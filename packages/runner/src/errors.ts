/**
 * Stable error codes of @browsertask/runner. Consumers branch on `code`; messages are the
 * spec's messages word for word where the spec fixes one (see README "Errors").
 */
export type RunnerErrorCode =
  /** `unknown task: <slug>` — no valid task with that slug in the bundle. */
  | 'ERR_RUNNER_UNKNOWN_TASK'
  /** The recipe file exists but does not parse; the message is `file:line:col: message`. */
  | 'ERR_RUNNER_INVALID_RECIPE'
  /** `missing required input(s): <names>`. */
  | 'ERR_RUNNER_MISSING_INPUT'
  /** An input has the wrong type (the message names it). */
  | 'ERR_RUNNER_INVALID_INPUT'
  /** A step parameter cannot be coerced to its declared type, or is missing/invalid. */
  | 'ERR_RUNNER_INVALID_PARAM'
  /** `step "<step>": context deadline exceeded`. */
  | 'ERR_RUNNER_DEADLINE'
  /** The run's AbortSignal fired (client gone). */
  | 'ERR_RUNNER_ABORTED'
  /** A step failed (selector timeout, navigation error, …); the message names the step. */
  | 'ERR_RUNNER_STEP_FAILED'
  /** A file parameter resolves outside the allowed roots. */
  | 'ERR_RUNNER_PATH_ESCAPE'
  /** A `js` module is missing, escapes scripts/, has a syntax error or throws. */
  | 'ERR_RUNNER_SCRIPT'
  /** `browser session was reset (tab crashed or detached); re-run pool setup...`. */
  | 'ERR_RUNNER_SESSION_RESET'
  /** `acquire timeout: <tag>` from the window pool. */
  | 'ERR_RUNNER_ACQUIRE_TIMEOUT'
  /** Recording could not be encoded (e.g. MP4 without ffmpeg and no GIF fallback). */
  | 'ERR_RUNNER_RECORDING'
  /** A `setup` chain or `call` stack names a task already running (`… cycle: a → b → a`). */
  | 'ERR_RUNNER_RECURSION';

/** The one error class of the runner: `code` is stable, `message` is for people. */
export class RunnerError extends Error {
  /** Stable machine-readable code. */
  readonly code: RunnerErrorCode;
  /** Name of the step that failed, when the failure belongs to a step. */
  readonly step: string | undefined;

  /**
   * @param code - stable code
   * @param message - human message (the spec message where one exists)
   * @param options - `cause` and the failing step's name
   */
  constructor(
    code: RunnerErrorCode,
    message: string,
    options: { cause?: unknown; step?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RunnerError';
    this.code = code;
    this.step = options.step;
  }
}

/** Whether `err` is a RunnerError (optionally with the given code). */
export function isRunnerError(err: unknown, code?: RunnerErrorCode): err is RunnerError {
  return err instanceof RunnerError && (code === undefined || err.code === code);
}
