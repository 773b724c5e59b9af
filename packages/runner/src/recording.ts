/**
 * Recording: the step option `record` (that one step screencast to a GIF under
 * `<recordingsDir>/<task>/<runId>/`, then a `recording` event `{path, step, ok}`; a failing
 * step's error names the file) and the `record … end` block (GIF or MP4 of its children,
 * saved to `path` and/or bound; a failing block is still encoded and saved).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Frame } from '@browsertask/recorder';
import type { ActionImpl, RecorderApi, ScreencastLike, StepContext } from './context.js';
import { RunnerError } from './errors.js';
import { binaryOutput, hasName, requirePathOrName } from './actions/output.js';
import { resolveSafePath } from './paths.js';

let stepCounter = 0;

function safeSegments(name: string): string[] {
  return name
    .split('/')
    .filter((s) => s !== '' && s !== '.' && s !== '..')
    .map((s) => s.replace(/[^\w.-]/g, '_'));
}

/** The directory of a run's step recordings: `<recordingsDir>/<task>/<runId>/`. */
export function runRecordingsDir(
  ctx: Pick<StepContext, 'recordingsDir' | 'taskName' | 'runId'>,
): string {
  return join(ctx.recordingsDir, ...safeSegments(ctx.taskName), ...safeSegments(ctx.runId));
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function withPath(err: Error, path: string): Error {
  if (err instanceof RunnerError) {
    return new RunnerError(err.code, `${err.message} (recording: ${path})`, {
      cause: err.cause,
      step: err.step,
    });
  }
  err.message = `${err.message} (recording: ${path})`;
  return err;
}

async function startCast(
  recorder: RecorderApi,
  ctx: StepContext,
  label: string,
  options: { fps: number; maxFrames: number; maxDurationMs: number },
): Promise<ScreencastLike> {
  return ctx.deadline.run(label, async () => recorder.startScreencast(ctx.page, options));
}

/**
 * Runs `run` with a GIF screencast around it; emits the `recording` event and, when the
 * step fails, rethrows its error with the recording's path appended.
 */
export async function withStepRecording(
  label: string,
  ctx: StepContext,
  run: () => Promise<unknown>,
): Promise<unknown> {
  const recorder = ctx.recorder;
  if (recorder === undefined) {
    ctx.logger.warn({ step: label }, 'step recording skipped: no recorder configured');
    return run();
  }
  const fps = 5;
  const cast = await startCast(recorder, ctx, label, {
    fps,
    maxFrames: 300,
    maxDurationMs: Math.min(30000, ctx.deadline.remainingMs()),
  });
  let ok = true;
  let failure: Error | undefined;
  let result: unknown;
  try {
    result = await run();
  } catch (err) {
    ok = false;
    failure = asError(err);
  }
  stepCounter += 1;
  const path = join(runRecordingsDir(ctx), `${String(stepCounter).padStart(3, '0')}-${label}.gif`);
  try {
    const frames = await stopWithFrames(cast, ctx);
    const gif = await recorder.encodeGif(frames, { fps, quality: 80 });
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, gif);
    await ctx.publish({
      kind: 'recording',
      text: `recording of step "${label}"`,
      data: { path, step: label, ok },
    });
  } catch (encodeErr) {
    // A debug aid never fails a step that worked; a failing step keeps its own error. SSE
    // callers still learn that the recording is missing, and why (e.g. ENOSPC).
    ctx.logger.warn({ step: label, err: encodeErr }, 'step recording failed');
    await ctx.publish({
      kind: 'recording',
      text: `recording of step "${label}" could not be saved`,
      data: { path, step: label, ok, saved: false, error: asError(encodeErr).message },
    });
    if (failure === undefined) return result;
    throw failure;
  }
  if (failure !== undefined) throw withPath(failure, path);
  return result;
}

/**
 * Stops the screencast; a quiet or very short capture can end with no frame at all, so one
 * screenshot stands in (a recording is never empty while the page lives).
 */
async function stopWithFrames(cast: ScreencastLike, ctx: StepContext): Promise<Frame[]> {
  const frames = await cast.stop();
  if (frames.length > 0) return frames;
  const png = await Promise.race([
    ctx.page.screenshot({ type: 'png', timeout: 5000 }),
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error('screenshot timed out')), 5000).unref(),
    ),
  ]).catch(() => undefined);
  return png === undefined ? [] : [{ png, timestampMs: 0 }];
}

function encode(
  recorder: RecorderApi,
  frames: Frame[],
  options: { fps: number; quality: number },
  mp4: boolean,
): Promise<Buffer> {
  return mp4 ? recorder.encodeMp4(frames, options) : recorder.encodeGif(frames, options);
}

function isFfmpegMissing(err: unknown): boolean {
  return (
    err !== null &&
    typeof err === 'object' &&
    ((err as { code?: unknown }).code === 'ERR_RECORDER_FFMPEG_MISSING' ||
      (err as { code?: unknown }).code === 'ENOENT')
  );
}

/** `record <name> [format gif|mp4] [fps] [quality] [maxFrames] [maxDurationMs] [path] [fallback gif] … end`. */
export const recordAction: ActionImpl = async (params, step, ctx, label) => {
  requirePathOrName(step, label, params.path);
  const recorder = ctx.recorder;
  if (recorder === undefined) {
    throw new RunnerError(
      'ERR_RUNNER_RECORDING',
      `step "${label}": recording is not available (no recorder configured)`,
      {
        step: label,
      },
    );
  }
  const fps = typeof params.fps === 'number' ? params.fps : 5;
  const quality = typeof params.quality === 'number' ? params.quality : 80;
  let path = typeof params.path === 'string' && params.path !== '' ? params.path : undefined;
  // Resolve before recording so an escaping path fails before any work.
  if (path !== undefined) resolveSafePath(label, 'path', path, ctx.roots);
  const cast = await startCast(recorder, ctx, label, {
    fps,
    maxFrames: typeof params.maxFrames === 'number' ? params.maxFrames : 300,
    maxDurationMs: Math.min(
      typeof params.maxDurationMs === 'number' ? params.maxDurationMs : 30000,
      ctx.deadline.remainingMs(),
    ),
  });
  let failure: Error | undefined;
  try {
    await ctx.runFlow(step.do ?? [], ctx);
  } catch (err) {
    failure = asError(err);
  }
  const frames = await stopWithFrames(cast, ctx);
  let bytes: Buffer;
  try {
    bytes = await encode(recorder, frames, { fps, quality }, params.format === 'mp4');
  } catch (err) {
    // A failing block's own error matters more than its recording's.
    if (failure !== undefined) throw failure;
    if (!isFfmpegMissing(err) || params.fallback !== 'gif') {
      const reason = err instanceof Error ? err.message : String(err);
      const hint = isFfmpegMissing(err)
        ? ' (or let the recipe fall back to GIF: fallback gif)'
        : '';
      throw new RunnerError('ERR_RUNNER_RECORDING', `step "${label}": ${reason}${hint}`, {
        step: label,
        cause: err,
      });
    }
    ctx.logger.warn({ step: label }, 'ffmpeg missing: recording encoded as GIF (fallback gif)');
    bytes = await encode(recorder, frames, { fps, quality }, false);
    if (path !== undefined) path = `${path.replace(/\.mp4$/i, '')}.gif`;
  }
  const out = await binaryOutput(step, label, ctx, path, bytes);
  if (path !== undefined) {
    const written = resolveSafePath(label, 'path', path, ctx.roots);
    await ctx.publish({
      kind: 'recording',
      text: `recording of block "${hasName(step) ? String(step.as) : label}"`,
      data: { path: written, step: label, ok: failure === undefined },
    });
    if (failure !== undefined) throw withPath(failure, written);
  } else if (failure !== undefined) throw failure;
  return out;
};
