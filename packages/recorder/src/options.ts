import { RecorderError } from './errors.js';

/**
 * webtasks' defaults for the `record` action, used wherever an option is omitted.
 * fps 5, quality 80, maxFrames 300, maxDurationMs 30000.
 */
export const RECORD_DEFAULTS = {
  fps: 5,
  quality: 80,
  maxFrames: 300,
  maxDurationMs: 30_000,
} as const;

/** Highest accepted frame rate. GIF delays are whole centiseconds, so 50 fps is GIF's own limit. */
export const MAX_FPS = 50;

/** Validates an integer option in `[min, max]`, or returns `fallback` when it is undefined. */
export function intOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RecorderError(
      'ERR_RECORDER_INVALID_OPTIONS',
      `${name} must be a number from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/** Validated `fps` (1–50, may be fractional down to 0.1). @throws ERR_RECORDER_INVALID_OPTIONS */
export function fpsOption(value: number | undefined): number {
  return intOption('fps', value, RECORD_DEFAULTS.fps, 0.1, MAX_FPS);
}

/** Validated `quality` (1–100, rounded). @throws ERR_RECORDER_INVALID_OPTIONS */
export function qualityOption(value: number | undefined): number {
  return Math.round(intOption('quality', value, RECORD_DEFAULTS.quality, 1, 100));
}
