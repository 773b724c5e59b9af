/** Stable error codes of @browsertask/sse; consumers branch on these, never on messages. */
export type SseErrorCode =
  /** The response cannot stream (headers already sent, ended, destroyed or no `flushHeaders`). */
  | 'ERR_SSE_NO_FLUSHER'
  /** An event name contains a line break (it would corrupt the stream framing). */
  | 'ERR_SSE_BAD_EVENT';

/** The one error class of @browsertask/sse. */
export class SseError extends Error {
  /** Stable machine-readable code. */
  readonly code: SseErrorCode;

  /** Creates an error with a stable `code`, an actionable message and an optional cause. */
  constructor(code: SseErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SseError';
    this.code = code;
  }
}
