/**
 * The one table from error codes to HTTP statuses and envelope codes. Codes of other
 * packages are matched by string (`ERR_SSE_NO_FLUSHER`), never by importing their classes.
 */

/** HTTP status and envelope `error.code` for one error. */
export interface ErrorResponse {
  readonly status: number;
  readonly code: string;
}

/** Error `code` → HTTP status + envelope code. */
export const ERROR_RESPONSES: Readonly<Record<string, ErrorResponse>> = Object.freeze({
  ERR_SERVER_MISSING_NAME: { status: 400, code: 'MISSING_NAME' },
  ERR_SERVER_BAD_BODY: { status: 400, code: 'BAD_BODY' },
  ERR_SERVER_UNAUTHORIZED: { status: 401, code: 'UNAUTHORIZED' },
  ERR_SERVER_FORBIDDEN: { status: 403, code: 'FORBIDDEN' },
  ERR_SERVER_NOT_FOUND: { status: 404, code: 'NOT_FOUND' },
  ERR_SERVER_METHOD_NOT_ALLOWED: { status: 405, code: 'METHOD_NOT_ALLOWED' },
  ERR_SERVER_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE' },
  ERR_SERVER_EXECUTION_FAILED: { status: 500, code: 'EXECUTION_FAILED' },
  ERR_SSE_NO_FLUSHER: { status: 500, code: 'NO_FLUSHER' },
});

/** HTTP errors raised by libraries (`send`, `@koa/router`) carry only a status. */
const BY_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  412: 'PRECONDITION_FAILED',
  416: 'RANGE_NOT_SATISFIABLE',
  501: 'NOT_IMPLEMENTED',
};

/** The status and envelope of any thrown value, plus the message safe to show a caller. */
export function errorResponseFor(err: unknown): ErrorResponse & { message: string } {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown;
    status?: unknown;
    message?: unknown;
  };
  const message = typeof e.message === 'string' ? e.message : String(err);
  if (typeof e.code === 'string') {
    const mapped = ERROR_RESPONSES[e.code];
    if (mapped !== undefined) return { ...mapped, message };
  }
  if (typeof e.status === 'number' && BY_STATUS[e.status] !== undefined) {
    return { status: e.status, code: BY_STATUS[e.status]!, message };
  }
  // Unknown failures: never leak internals (stack traces, paths) to the caller.
  return { status: 500, code: 'INTERNAL_ERROR', message: 'internal server error' };
}
