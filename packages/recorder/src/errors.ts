/** Stable error codes of @browsertask/recorder; consumers branch on these, never on messages. */
export type RecorderErrorCode =
  /** MP4 was requested but no ffmpeg binary could be started (missing or not executable). */
  | 'ERR_RECORDER_FFMPEG_MISSING'
  /** An encoder failed (ffmpeg exited non-zero, timed out, or the GIF writer failed). */
  | 'ERR_RECORDER_ENCODE'
  /** A frame is not a decodable PNG. */
  | 'ERR_RECORDER_INVALID_FRAME'
  /** There were no frames to encode. */
  | 'ERR_RECORDER_NO_FRAMES'
  /** An option is out of range (fps, quality, maxFrames, maxDurationMs, maxWidth, …). */
  | 'ERR_RECORDER_INVALID_OPTIONS'
  /** The caller's `signal` aborted an encoding. */
  | 'ERR_RECORDER_ABORTED'
  /** The screencast could not be started (page closed, crashed, or neither CDP nor screenshots work). */
  | 'ERR_RECORDER_CAPTURE';

/** The one error class of @browsertask/recorder. */
export class RecorderError extends Error {
  /** Stable machine-readable code. */
  readonly code: RecorderErrorCode;

  /** Creates an error with a stable `code`, an actionable message and an optional cause. */
  constructor(code: RecorderErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RecorderError';
    this.code = code;
  }
}
