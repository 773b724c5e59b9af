// Public API of @browsertask/sse.
export { SseError, type SseErrorCode } from './errors.js';
export { formatComment, formatEvent } from './format-event.js';
export { noopLogger, type Logger } from './logger.js';
export {
  DEFAULT_HEARTBEAT_MS,
  SSE_HEADERS,
  SseStream,
  type SseStreamOptions,
} from './sse-stream.js';
