import type { CDPSession, Page } from 'playwright';
import { RecorderError } from './errors.js';
import type { Frame } from './frame.js';
import { type Logger, noopLogger } from './logger.js';
import { RECORD_DEFAULTS, fpsOption, intOption, qualityOption } from './options.js';

/** How frames are grabbed: CDP `Page.startScreencast`, or timed `page.screenshot()`. */
export type ScreencastMethod = 'cdp' | 'screenshot';

/** Why a capture ended. */
export type ScreencastStopReason =
  'stopped' | 'maxFrames' | 'maxDuration' | 'aborted' | 'crashed' | 'closed' | 'error';

/** Options of {@link startScreencast}; omitted values take webtasks' defaults. */
export interface ScreencastOptions {
  /** Output frame rate (0.1–50); frames are resampled to exactly this rate. @default 5 */
  fps?: number;
  /** Capture ends after this many frames. @default 300 */
  maxFrames?: number;
  /** Capture ends after this much wall-clock time, in ms. @default 30000 */
  maxDurationMs?: number;
  /** 1–100. Capture is lossless PNG; the value is validated and kept for the encoders. @default 80 */
  quality?: number;
  /** Aborting ends the capture; `stop()` still returns the frames taken so far. */
  signal?: AbortSignal;
  /** `auto` uses CDP when the page offers it, else screenshots. @default 'auto' */
  method?: 'auto' | ScreencastMethod;
  /** Structured logger. @default noopLogger */
  logger?: Logger;
}

/** A running capture of one page. */
export interface Screencast {
  /** The capture method in use. */
  readonly method: ScreencastMethod;
  /** Frames captured so far (after resampling). */
  readonly frameCount: number;
  /** Whether capture has ended (stop(), a cap, abort, crash or close). */
  readonly stopped: boolean;
  /** Why capture ended, once it has. */
  readonly stopReason: ScreencastStopReason | undefined;
  /** The validated quality, for the encoder. */
  readonly quality: number;
  /** The validated fps, for the encoder. */
  readonly fps: number;
  /**
   * Ends capture (if still running), detaches the CDP session and resolves every frame, one
   * per 1/fps. Idempotent: later calls resolve the same frames. Never rejects, even when the
   * page crashed or closed mid-capture.
   */
  stop(): Promise<Frame[]>;
  /** Same as `stop()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Deadline for CDP housekeeping calls: a hung or crashed renderer never answers them. */
const CDP_TEARDOWN_MS = 1000;

interface Source {
  at: number;
  bucket: number;
  data: string | Buffer;
}

/**
 * Starts capturing a page. With CDP, `Page.startScreencast` (PNG) frames are acked one by one
 * and resampled to `fps`: each tick keeps the latest frame, and repeats the previous one when
 * the page is idle (the screencast only emits on change), so timing stays right.
 * @throws ERR_RECORDER_INVALID_OPTIONS, ERR_RECORDER_ABORTED (signal already aborted),
 *   ERR_RECORDER_CAPTURE (page closed, or the forced method is unavailable)
 * @example
 * const cast = await startScreencast(page, { fps: 5 });
 * await page.click('#next');
 * const gif = await encodeGif(await cast.stop(), { fps: cast.fps, quality: cast.quality });
 */
export async function startScreencast(
  page: Page,
  options: ScreencastOptions = {},
): Promise<Screencast> {
  const fps = fpsOption(options.fps);
  const quality = qualityOption(options.quality);
  const maxFrames = Math.floor(
    intOption('maxFrames', options.maxFrames, RECORD_DEFAULTS.maxFrames, 1, 1_000_000),
  );
  const maxDurationMs = intOption(
    'maxDurationMs',
    options.maxDurationMs,
    RECORD_DEFAULTS.maxDurationMs,
    1,
    24 * 3600_000,
  );
  const method = options.method ?? 'auto';
  const log = options.logger ?? noopLogger;
  if (options.signal?.aborted) {
    throw new RecorderError('ERR_RECORDER_ABORTED', 'screencast was aborted before it started', {
      cause: options.signal.reason,
    });
  }
  if (page.isClosed()) {
    throw new RecorderError('ERR_RECORDER_CAPTURE', 'cannot record a page that is closed');
  }
  const cast = new PageScreencast(page, { fps, quality, maxFrames, maxDurationMs, log });
  if (method !== 'screenshot') {
    const cdpError = await cast.tryCdp();
    if (cdpError && method === 'cdp') {
      await cast.stop();
      throw new RecorderError(
        'ERR_RECORDER_CAPTURE',
        `CDP screencast is not available: ${cdpError.message}`,
        { cause: cdpError },
      );
    }
    if (cdpError) log.debug({ err: cdpError }, 'cdp screencast unavailable, using screenshots');
  }
  if (cast.method === 'screenshot') cast.startScreenshots();
  cast.watch(options.signal);
  return cast;
}

class PageScreencast implements Screencast {
  method: ScreencastMethod = 'screenshot';
  stopReason: ScreencastStopReason | undefined;
  readonly fps: number;
  readonly quality: number;
  private readonly page: Page;
  private readonly maxFrames: number;
  private readonly maxDurationMs: number;
  private readonly log: Logger;
  private readonly intervalMs: number;
  private readonly startedAt = performance.now();
  private readonly frames: Frame[] = [];
  private readonly queue: Source[] = [];
  private current: Source | undefined;
  private lastEmitted: Source | undefined;
  private tick = 0;
  private timer: NodeJS.Timeout | undefined;
  private cdp: CDPSession | undefined;
  private teardown: Promise<void> = Promise.resolve();
  private stopPromise: Promise<Frame[]> | undefined;
  private wakeScreenshots: (() => void) | undefined;
  private screenshotLoop: Promise<void> | undefined;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    page: Page,
    o: { fps: number; quality: number; maxFrames: number; maxDurationMs: number; log: Logger },
  ) {
    this.page = page;
    this.fps = o.fps;
    this.quality = o.quality;
    this.maxFrames = o.maxFrames;
    this.maxDurationMs = o.maxDurationMs;
    this.log = o.log;
    this.intervalMs = 1000 / o.fps;
  }

  get frameCount(): number {
    return this.frames.length;
  }

  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  /** Starts the CDP screencast; resolves the error when CDP is unavailable. */
  async tryCdp(): Promise<Error | undefined> {
    let cdp: CDPSession;
    try {
      cdp = await this.page.context().newCDPSession(this.page);
    } catch (err) {
      return err as Error;
    }
    cdp.on('Page.screencastFrame', (ev) => {
      // Chromium sends the next frame only after an ack: ack every one, even after the end.
      cdp.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => undefined);
      if (!this.stopped) this.push(performance.now(), ev.data);
    });
    try {
      await cdp.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 });
    } catch (err) {
      await settle(cdp.detach(), CDP_TEARDOWN_MS);
      return err as Error;
    }
    this.cdp = cdp;
    this.method = 'cdp';
    return undefined;
  }

  /** Fallback: one `page.screenshot()` per tick (slower, but works on any browser). */
  startScreenshots(): void {
    const loop = async (): Promise<void> => {
      while (!this.stopped) {
        const at = performance.now();
        try {
          const png = await this.page.screenshot({
            type: 'png',
            timeout: Math.max(2000, this.intervalMs * 4),
          });
          if (!this.stopped) this.push(at, png);
        } catch (err) {
          if (this.stopped) return;
          if (this.page.isClosed()) {
            this.end('closed');
            return;
          }
          this.log.warn({ err }, 'screenshot failed during screencast');
          if (/crash|closed/i.test((err as Error).message)) {
            this.end('error');
            return;
          }
        }
        const wait = at + this.intervalMs - performance.now();
        if (wait > 0 && !this.stopped) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, wait);
            this.wakeScreenshots = () => {
              clearTimeout(t);
              resolve();
            };
          });
        }
      }
    };
    // stop() waits (briefly) for an in-flight screenshot, so nothing touches the page after it.
    this.screenshotLoop = loop();
  }

  /** Ticks, caps, abort, crash and close handling. */
  watch(signal: AbortSignal | undefined): void {
    const onCrash = (): void => this.finishEarly('crashed');
    const onClose = (): void => this.finishEarly('closed');
    this.page.on('crash', onCrash);
    this.page.on('close', onClose);
    this.cleanups.push(() => {
      this.page.off('crash', onCrash);
      this.page.off('close', onClose);
    });
    if (signal) {
      const onAbort = (): void => this.finishEarly('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      this.cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
    this.schedule();
  }

  stop(): Promise<Frame[]> {
    this.stopPromise ??= (async () => {
      this.finishEarly('stopped');
      await this.teardown;
      if (this.frames.length === 0) await this.standInFrame();
      return this.frames;
    })();
    return this.stopPromise;
  }

  /**
   * Screencast frames come only when the page changes, so a short capture of a still page
   * on a loaded machine can end with none: one screenshot stands in (bounded by 2 s), so a
   * recording of a live page is never empty.
   */
  private async standInFrame(): Promise<void> {
    if (this.stopReason === 'crashed' || this.stopReason === 'closed' || this.page.isClosed()) {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const png = await Promise.race([
        this.page.screenshot({ type: 'png', timeout: 2000 }),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), 2500);
        }),
      ]);
      if (png) this.frames.push({ png, timestampMs: 0 });
    } catch (err) {
      this.log.debug({ err }, 'no stand-in frame for an empty capture');
    } finally {
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  private push(at: number, data: string | Buffer): void {
    const bucket = Math.ceil((at - this.startedAt) / this.intervalMs);
    const last = this.queue[this.queue.length - 1];
    // Only the latest frame before each tick is ever used; drop the ones it supersedes.
    if (last && last.bucket === bucket) this.queue.pop();
    this.queue.push({ at, bucket, data });
  }

  private schedule(): void {
    if (this.stopped) return;
    const due = this.startedAt + this.tick * this.intervalMs;
    this.timer = setTimeout(
      () => {
        this.advance(performance.now());
        this.schedule();
      },
      Math.max(0, due - performance.now()),
    );
    this.timer.unref();
  }

  /** Emits one frame per tick that is due, each the latest source frame at its tick time. */
  private advance(now: number): void {
    while (!this.stopped && this.startedAt + this.tick * this.intervalMs <= now) {
      const tickMs = this.tick * this.intervalMs;
      if (tickMs >= this.maxDurationMs) {
        this.end('maxDuration');
        return;
      }
      const tickAt = this.startedAt + tickMs;
      while (this.queue.length > 0 && this.queue[0]!.at <= tickAt)
        this.current = this.queue.shift();
      this.tick++;
      if (this.current) this.emit(this.current, tickMs);
    }
  }

  private emit(source: Source, tickMs: number): void {
    if (typeof source.data === 'string') source.data = Buffer.from(source.data, 'base64');
    this.frames.push({ png: source.data, timestampMs: Math.round(tickMs) });
    this.lastEmitted = source;
    if (this.frames.length >= this.maxFrames) this.end('maxFrames');
  }

  /** Ends capture by stop/abort/crash/close: catch up the ticks and keep the final state. */
  private finishEarly(reason: ScreencastStopReason): void {
    if (this.stopped) return;
    this.advance(performance.now());
    if (this.stopped) return;
    const latest = this.queue[this.queue.length - 1] ?? this.current;
    if (latest && latest !== this.lastEmitted) {
      const tickMs = this.tick * this.intervalMs;
      if (tickMs < this.maxDurationMs) {
        this.tick++;
        this.emit(latest, tickMs);
      }
    }
    this.end(reason);
  }

  private end(reason: ScreencastStopReason): void {
    if (this.stopped) return;
    this.stopReason = reason;
    clearTimeout(this.timer);
    this.wakeScreenshots?.();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.log.debug({ reason, frames: this.frames.length, method: this.method }, 'screencast ended');
    const loop = this.screenshotLoop;
    if (loop) this.teardown = settle(loop, CDP_TEARDOWN_MS * 2);
    const cdp = this.cdp;
    this.cdp = undefined;
    if (cdp) {
      const crashed = reason === 'crashed' || reason === 'closed';
      this.teardown = (async () => {
        if (!crashed) await settle(cdp.send('Page.stopScreencast'), CDP_TEARDOWN_MS);
        await settle(cdp.detach(), CDP_TEARDOWN_MS);
      })();
    }
  }
}

/** Waits for `p` at most `ms`, ignoring its outcome (for best-effort teardown). */
async function settle(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    p.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
