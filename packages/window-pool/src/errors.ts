/**
 * Stable error codes of `@browsertask/window-pool`. Consumers branch on these, never on
 * messages or classes.
 */
export type PoolErrorCode =
  | 'ERR_POOL_ACQUIRE_TIMEOUT'
  | 'ERR_POOL_ACQUIRE_ABORTED'
  | 'ERR_POOL_UNKNOWN_TAG'
  | 'ERR_POOL_CLOSED'
  | 'ERR_POOL_NOT_STARTED'
  | 'ERR_POOL_CONFIG_INVALID'
  | 'ERR_POOL_BROWSER_NOT_FOUND'
  | 'ERR_POOL_LAUNCH_FAILED'
  | 'ERR_POOL_SESSION_RESET';

/** Base class of every error this package throws; `code` is one of {@link PoolErrorCode}. */
export class PoolError extends Error {
  /** Stable machine-readable code. */
  readonly code: PoolErrorCode;

  /**
   * @param code - stable code
   * @param message - what failed, what was expected and where
   * @param options - `{ cause }` chaining
   */
  constructor(code: PoolErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoolError';
    this.code = code;
  }
}

/** The spec's message for a run whose window died (service-spec "Errors"). */
export const SESSION_RESET_MESSAGE =
  'browser session was reset (tab crashed or detached); re-run pool setup...';

/**
 * Thrown (by the runner) when the leased window's target died mid-run; the pool has replaced
 * (or is replacing) the window under the same id, so setup or login must be re-run.
 * Code `ERR_POOL_SESSION_RESET`; the message is the spec's, word for word.
 */
export class SessionResetError extends PoolError {
  /** Pool of the window that died, when known. */
  readonly poolTag: string | undefined;
  /** Id of the window that died, when known. */
  readonly windowId: string | undefined;

  /**
   * @param options - the dead-target error as `cause`, and the window it happened on
   */
  constructor(options: { cause?: unknown; poolTag?: string; windowId?: string } = {}) {
    super('ERR_POOL_SESSION_RESET', SESSION_RESET_MESSAGE, { cause: options.cause });
    this.name = 'SessionResetError';
    this.poolTag = options.poolTag;
    this.windowId = options.windowId;
  }
}

/** Builds the spec's `acquire timeout: <tag>` error. */
export function acquireTimeoutError(tag: string): PoolError {
  return new PoolError('ERR_POOL_ACQUIRE_TIMEOUT', `acquire timeout: ${tag}`);
}
