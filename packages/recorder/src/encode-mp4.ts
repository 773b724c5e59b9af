import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { execa, type ExecaError } from 'execa';
import { RecorderError } from './errors.js';
import type { Frame } from './frame.js';
import { pngSize } from './internal/png.js';
import { type Logger, noopLogger } from './logger.js';
import { fpsOption, intOption, qualityOption } from './options.js';

/** Options of {@link encodeMp4}. */
export interface EncodeMp4Options {
  /** Frames per second of the input and the video. @default 5 */
  fps?: number;
  /** 1–100, mapped to an x264 CRF by {@link mp4Crf}. @default 80 */
  quality?: number;
  /** The ffmpeg binary. @default 'ffmpeg' (looked up on PATH) */
  ffmpegPath?: string;
  /** Downscale frames wider than this many pixels, keeping the aspect ratio. */
  maxWidth?: number;
  /** Kills ffmpeg and rejects with ERR_RECORDER_ABORTED. */
  signal?: AbortSignal;
  /** Deadline for the whole ffmpeg run; ffmpeg is killed when it passes. @default 120000 */
  timeoutMs?: number;
  /** Structured logger. @default noopLogger */
  logger?: Logger;
}

/** Default deadline of one ffmpeg run. */
export const DEFAULT_FFMPEG_TIMEOUT_MS = 120_000;

/**
 * The x264 constant rate factor for a quality: linear from quality 1 → CRF 51 (worst) to
 * quality 100 → CRF 18 (visually lossless); the default 80 gives CRF 25.
 * @throws ERR_RECORDER_INVALID_OPTIONS when quality is outside 1–100.
 */
export function mp4Crf(quality: number): number {
  const q = qualityOption(quality);
  return Math.round(51 - ((q - 1) * 33) / 99);
}

/** The actionable message of ERR_RECORDER_FFMPEG_MISSING. */
export function ffmpegMissingMessage(ffmpeg: string, reason: string): string {
  return (
    `MP4 encoding needs ffmpeg, but "${ffmpeg}" could not be started (${reason}). ` +
    'Install it (apt-get install ffmpeg on Debian/Ubuntu, brew install ffmpeg on macOS) ' +
    'or set the path of an ffmpeg binary (the ffmpegPath option); GIF recording needs no ffmpeg.'
  );
}

/**
 * Encodes PNG frames as an H.264 MP4 (yuv420p, faststart) with ffmpeg. Frames are piped to
 * ffmpeg's stdin (`-f image2pipe`), treated as evenly spaced at `fps`, and scaled to even
 * dimensions; the output goes to a private temp directory that is always removed.
 * @throws ERR_RECORDER_FFMPEG_MISSING (no ffmpeg: callers may fall back to GIF),
 *   ERR_RECORDER_ENCODE (ffmpeg failed or timed out; the message ends with its stderr),
 *   ERR_RECORDER_ABORTED, ERR_RECORDER_NO_FRAMES, ERR_RECORDER_INVALID_FRAME,
 *   ERR_RECORDER_INVALID_OPTIONS
 * @example
 * const mp4 = await encodeMp4(frames, { fps: 5, quality: 80, ffmpegPath: '/usr/bin/ffmpeg' });
 */
export async function encodeMp4(
  frames: readonly Frame[],
  options: EncodeMp4Options = {},
): Promise<Buffer> {
  const fps = fpsOption(options.fps);
  const crf = mp4Crf(options.quality ?? 80);
  const timeoutMs = intOption(
    'timeoutMs',
    options.timeoutMs,
    DEFAULT_FFMPEG_TIMEOUT_MS,
    1,
    24 * 3600_000,
  );
  const maxWidth =
    options.maxWidth === undefined
      ? undefined
      : Math.floor(intOption('maxWidth', options.maxWidth, 0, 2, 65535));
  const log = options.logger ?? noopLogger;
  const { signal } = options;
  if (frames.length === 0) {
    throw new RecorderError('ERR_RECORDER_NO_FRAMES', 'cannot encode an MP4 from zero frames');
  }
  // Fail on a bad frame before starting a process; also gives the output size.
  const sizes = frames.map((f, i) => pngSize(f.png, i));
  let { width, height } = sizes[0]!;
  if (maxWidth !== undefined && width > maxWidth) {
    height = Math.max(1, Math.round((height * maxWidth) / width));
    width = maxWidth;
  }
  // yuv420p needs even dimensions; fixed numbers also keep a mid-run resize from breaking x264.
  width = Math.max(2, width - (width % 2));
  height = Math.max(2, height - (height % 2));
  if (signal?.aborted) {
    throw new RecorderError('ERR_RECORDER_ABORTED', 'MP4 encoding was aborted', {
      cause: signal.reason,
    });
  }

  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const dir = await mkdtemp(join(tmpdir(), 'browsertask-mp4-'));
  const output = join(dir, 'out.mp4');
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    '-framerate',
    String(fps),
    '-i',
    '-',
    '-vf',
    `scale=${width}:${height}:flags=bicubic`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-preset',
    'veryfast',
    '-crf',
    String(crf),
    '-r',
    String(fps),
    '-movflags',
    '+faststart',
    '-y',
    output,
  ];
  const started = performance.now();
  const proc = execa(ffmpeg, args, {
    stdin: 'pipe',
    stdout: 'ignore',
    stderr: 'pipe',
    cancelSignal: signal,
    timeout: timeoutMs,
    forceKillAfterDelay: 2000,
    maxBuffer: { stderr: 1024 * 1024 },
  });
  try {
    // EPIPE here only means ffmpeg stopped reading; its own exit status tells why.
    const feeding = pipeline(Readable.from(frames.map((f) => f.png)), proc.stdin).then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
    );
    await proc;
    const feedError = await feeding;
    if (feedError) throw feedError;
    const mp4 = await readFile(output);
    log.debug(
      { frames: frames.length, bytes: mp4.length, ms: Math.round(performance.now() - started) },
      'mp4 encoded',
    );
    return mp4;
  } catch (err) {
    throw toRecorderError(err, ffmpeg, timeoutMs, signal);
  } finally {
    // No orphan ffmpeg, whatever failed (execa already kills it on abort and timeout).
    if (proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined) {
      proc.kill('SIGKILL');
      await proc.catch(() => undefined);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

function toRecorderError(
  err: unknown,
  ffmpeg: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): RecorderError {
  if (err instanceof RecorderError) return err;
  const e = err as Partial<ExecaError> & { code?: string };
  if (e.isCanceled === true || signal?.aborted) {
    return new RecorderError(
      'ERR_RECORDER_ABORTED',
      'MP4 encoding was aborted; ffmpeg was killed',
      {
        cause: err,
      },
    );
  }
  if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'ENOTDIR') {
    return new RecorderError('ERR_RECORDER_FFMPEG_MISSING', ffmpegMissingMessage(ffmpeg, e.code), {
      cause: err,
    });
  }
  if (e.timedOut === true) {
    return new RecorderError(
      'ERR_RECORDER_ENCODE',
      `ffmpeg did not finish within ${timeoutMs} ms and was killed`,
      { cause: err },
    );
  }
  const stderr = typeof e.stderr === 'string' ? e.stderr : '';
  const tail = stderr.trim().split('\n').slice(-10).join('\n').slice(-2000);
  const status = e.exitCode !== undefined ? `exit code ${e.exitCode}` : (e.message ?? String(err));
  return new RecorderError(
    'ERR_RECORDER_ENCODE',
    `ffmpeg failed (${status})${tail ? `: ${tail}` : ''}`,
    { cause: err },
  );
}
