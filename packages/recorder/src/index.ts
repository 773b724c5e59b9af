// Public API of @browsertask/recorder.
export {
  encodeGif,
  gifQualitySettings,
  type EncodeGifOptions,
  type GifQualitySettings,
} from './encode-gif.js';
export {
  DEFAULT_FFMPEG_TIMEOUT_MS,
  encodeMp4,
  ffmpegMissingMessage,
  mp4Crf,
  type EncodeMp4Options,
} from './encode-mp4.js';
export { RecorderError, type RecorderErrorCode } from './errors.js';
export { findFfmpeg } from './find-ffmpeg.js';
export type { Frame } from './frame.js';
export { noopLogger, type Logger } from './logger.js';
export { MAX_FPS, RECORD_DEFAULTS } from './options.js';
export {
  startScreencast,
  type Screencast,
  type ScreencastMethod,
  type ScreencastOptions,
  type ScreencastStopReason,
} from './screencast.js';
