/** Stable error codes of @browsertask/server; the HTTP mapping is in `error-map.ts`. */
export type ServerErrorCode =
  /** `POST /tasks/` without a task name (400 `MISSING_NAME`). */
  | 'ERR_SERVER_MISSING_NAME'
  /** The request body is not JSON, or not a JSON object (400 `BAD_BODY`). */
  | 'ERR_SERVER_BAD_BODY'
  /** The request body exceeds `maxBodyBytes` (413 `BODY_TOO_LARGE`). */
  | 'ERR_SERVER_BODY_TOO_LARGE'
  /** A token is configured and the request lacks `Authorization: Bearer <token>` (401). */
  | 'ERR_SERVER_UNAUTHORIZED'
  /** A static-mount path escapes the mount root (403 `FORBIDDEN`). */
  | 'ERR_SERVER_FORBIDDEN'
  /** No such route, or no such file on a mount (404 `NOT_FOUND`). */
  | 'ERR_SERVER_NOT_FOUND'
  /** Known route, wrong method (405 `METHOD_NOT_ALLOWED`, with `Allow`). */
  | 'ERR_SERVER_METHOD_NOT_ALLOWED'
  /** The task ran and failed; the message is the runner's (500 `EXECUTION_FAILED`). */
  | 'ERR_SERVER_EXECUTION_FAILED'
  /** `validateStaticMounts` found problems (thrown by `assertStaticMounts`). */
  | 'ERR_SERVER_INVALID_MOUNTS';

/** The one error class of @browsertask/server. */
export class ServerError extends Error {
  /** Stable machine-readable code. */
  readonly code: ServerErrorCode;

  /** Creates an error with a stable `code`, an actionable message and an optional cause. */
  constructor(code: ServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServerError';
    this.code = code;
  }
}
