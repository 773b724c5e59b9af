import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { GifWriter } from 'omggif';
import { RecorderError } from './errors.js';
import type { Frame } from './frame.js';
import { decodePng, resizeRgba, type RgbaImage } from './internal/png.js';
import { ColorHistogram, PaletteMapper } from './internal/quantize.js';
import { fpsOption, intOption, qualityOption } from './options.js';

/** Options of {@link encodeGif}. */
export interface EncodeGifOptions {
  /** Frames per second the frames were captured at; sets the GIF delays. @default 5 */
  fps?: number;
  /** 1–100; chooses palette size and dithering (see {@link gifQualitySettings}). @default 80 */
  quality?: number;
  /** Downscale (area average) frames wider than this many pixels, keeping the aspect ratio. */
  maxWidth?: number;
  /** Aborts the encoding with ERR_RECORDER_ABORTED. */
  signal?: AbortSignal;
}

/** How a GIF `quality` maps to the quantiser. */
export interface GifQualitySettings {
  /** Most colours per frame palette (one slot goes to transparency when a frame uses it). */
  colors: number;
  /** Floyd–Steinberg error diffusion (smoother gradients, noisier text, bigger files). */
  dither: boolean;
}

/**
 * Palette size and dithering for a quality: 90–100 → 256 colours + dithering;
 * 70–89 → 256; 45–69 → 128; 20–44 → 64; 1–19 → 32 (no dithering below 90, so text stays crisp).
 * @throws ERR_RECORDER_INVALID_OPTIONS when quality is outside 1–100.
 */
export function gifQualitySettings(quality: number): GifQualitySettings {
  const q = qualityOption(quality);
  if (q >= 90) return { colors: 256, dither: true };
  if (q >= 70) return { colors: 256, dither: false };
  if (q >= 45) return { colors: 128, dither: false };
  if (q >= 20) return { colors: 64, dither: false };
  return { colors: 32, dither: false };
}

interface PendingFrame {
  x: number;
  y: number;
  w: number;
  h: number;
  indices: Uint8Array;
  palette: number[];
  transparent: number | undefined;
  startIndex: number;
}

/**
 * Encodes PNG frames as a looping GIF. Each frame gets its own median-cut palette built from
 * the pixels that changed; only the changed rectangle is stored, unchanged pixels inside it
 * are transparent, and identical consecutive frames are merged into one longer delay.
 * @throws ERR_RECORDER_NO_FRAMES, ERR_RECORDER_INVALID_FRAME, ERR_RECORDER_INVALID_OPTIONS,
 *   ERR_RECORDER_ABORTED, ERR_RECORDER_ENCODE
 * @example
 * const gif = await encodeGif(await screencast.stop(), { fps: 5, quality: 80 });
 * await writeFile('run.gif', gif);
 */
export async function encodeGif(
  frames: readonly Frame[],
  options: EncodeGifOptions = {},
): Promise<Buffer> {
  const fps = fpsOption(options.fps);
  const { colors, dither } = gifQualitySettings(options.quality ?? 80);
  const maxWidth =
    options.maxWidth === undefined
      ? undefined
      : Math.floor(intOption('maxWidth', options.maxWidth, 0, 2, 65535));
  const { signal } = options;
  if (frames.length === 0) {
    throw new RecorderError('ERR_RECORDER_NO_FRAMES', 'cannot encode a GIF from zero frames');
  }
  checkAborted(signal);

  const first = decodePng(frames[0]!.png, 0);
  let width = first.width;
  let height = first.height;
  if (maxWidth !== undefined && width > maxWidth) {
    height = Math.max(1, Math.round((height * maxWidth) / width));
    width = maxWidth;
  }
  if (width > 65535 || height > 65535) {
    throw new RecorderError('ERR_RECORDER_INVALID_FRAME', 'GIF frames are limited to 65535 px');
  }

  const out = new GrowableGif(width, height);
  const hist = new ColorHistogram();
  const mapper = new PaletteMapper();
  // Delays are whole centiseconds; rounding the cumulative time keeps the total exact.
  const centis = (index: number): number => Math.round((index * 100) / fps);

  let prev: Uint32Array | undefined;
  let pending: PendingFrame | undefined;
  const flush = (endIndex: number): void => {
    if (!pending) return;
    const delay = Math.max(2, centis(endIndex) - centis(pending.startIndex));
    out.addFrame(pending, delay);
    pending = undefined;
  };

  for (let i = 0; i < frames.length; i++) {
    checkAborted(signal);
    // A screencast repeats the previous PNG while the page is idle: no need to decode it.
    if (i > 0 && samePng(frames[i]!.png, frames[i - 1]!.png)) continue;
    let img: RgbaImage = i === 0 ? first : decodePng(frames[i]!.png, i);
    img = resizeRgba(img, width, height);
    const cur = new Uint32Array(img.data.buffer, img.data.byteOffset, width * height);
    const rect = prev ? changedRect(prev, cur, width, height) : { x: 0, y: 0, w: width, h: height };
    if (rect) {
      flush(i);
      pending = quantizeRect(img, prev, rect, colors, dither, hist, mapper, i);
      prev = cur;
    }
    // CPU-bound work: let the server breathe between frames.
    if (i % 2 === 1) await yieldToEventLoop();
  }
  flush(frames.length);
  return out.finish();
}

function samePng(a: Buffer, b: Buffer): boolean {
  return a === b || a.equals(b);
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new RecorderError('ERR_RECORDER_ABORTED', 'GIF encoding was aborted', {
      cause: signal.reason,
    });
  }
}

/** The bounding box of the pixels that differ, or undefined when the frames are identical. */
function changedRect(
  prev: Uint32Array,
  cur: Uint32Array,
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number } | undefined {
  let minX = width;
  let maxX = -1;
  let minY = height;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width && prev[row + x] === cur[row + x]) x++;
    if (x === width) continue;
    let x2 = width - 1;
    while (prev[row + x2] === cur[row + x2]) x2--;
    if (x < minX) minX = x;
    if (x2 > maxX) maxX = x2;
    if (y < minY) minY = y;
    maxY = y;
  }
  if (maxY < 0) return undefined;
  return { x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1 };
}

function quantizeRect(
  img: RgbaImage,
  prev: Uint32Array | undefined,
  rect: { x: number; y: number; w: number; h: number },
  colors: number,
  dither: boolean,
  hist: ColorHistogram,
  mapper: PaletteMapper,
  startIndex: number,
): PendingFrame {
  const { data, width } = img;
  const cur = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2);
  const { x, y, w, h } = rect;
  hist.reset();
  let unchanged = 0;
  for (let yy = y; yy < y + h; yy++) {
    for (let xx = x; xx < x + w; xx++) {
      const p = yy * width + xx;
      if (prev && prev[p] === cur[p]) {
        unchanged++;
        continue;
      }
      hist.add(data[p * 4]!, data[p * 4 + 1]!, data[p * 4 + 2]!);
    }
  }
  // Transparency costs one palette slot; worth it only when some pixels are unchanged.
  const transparentUsed = unchanged > 0;
  const pal = hist.palette(transparentUsed ? Math.min(colors, 255) : colors);
  mapper.use(pal);
  const nColors = pal.length / 3;
  const transparent = transparentUsed ? nColors : undefined;
  let size = 2;
  while (size < nColors + (transparentUsed ? 1 : 0)) size <<= 1;
  const palette = new Array<number>(size).fill(0);
  for (let j = 0; j < nColors; j++) {
    palette[j] = (pal[j * 3]! << 16) | (pal[j * 3 + 1]! << 8) | pal[j * 3 + 2]!;
  }

  const indices = new Uint8Array(w * h);
  if (!dither) {
    let k = 0;
    for (let yy = y; yy < y + h; yy++) {
      for (let xx = x; xx < x + w; xx++, k++) {
        const p = yy * width + xx;
        indices[k] =
          transparent !== undefined && prev && prev[p] === cur[p]
            ? transparent
            : mapper.index(data[p * 4]!, data[p * 4 + 1]!, data[p * 4 + 2]!);
      }
    }
  } else {
    floydSteinberg(data, width, prev, cur, rect, pal, mapper, transparent, indices);
  }
  return { x, y, w, h, indices, palette, transparent, startIndex };
}

/** Error diffusion at 3/4 strength (full strength turns anti-aliased text into noise). */
function floydSteinberg(
  data: Uint8Array,
  width: number,
  prev: Uint32Array | undefined,
  cur: Uint32Array,
  rect: { x: number; y: number; w: number; h: number },
  pal: Uint8Array,
  mapper: PaletteMapper,
  transparent: number | undefined,
  indices: Uint8Array,
): void {
  const { x, y, w, h } = rect;
  let errCur = new Float32Array((w + 2) * 3);
  let errNext = new Float32Array((w + 2) * 3);
  const strength = 0.75;
  let k = 0;
  for (let yy = y; yy < y + h; yy++) {
    errNext.fill(0);
    for (let i = 0; i < w; i++, k++) {
      const p = yy * width + x + i;
      if (transparent !== undefined && prev && prev[p] === cur[p]) {
        indices[k] = transparent;
        continue;
      }
      const e = (i + 1) * 3;
      const r = clamp(data[p * 4]! + errCur[e]!);
      const g = clamp(data[p * 4 + 1]! + errCur[e + 1]!);
      const b = clamp(data[p * 4 + 2]! + errCur[e + 2]!);
      const idx = mapper.index(r, g, b);
      indices[k] = idx;
      const er = (r - pal[idx * 3]!) * strength;
      const eg = (g - pal[idx * 3 + 1]!) * strength;
      const eb = (b - pal[idx * 3 + 2]!) * strength;
      const spread = (arr: Float32Array, at: number, f: number): void => {
        arr[at]! += er * f;
        arr[at + 1]! += eg * f;
        arr[at + 2]! += eb * f;
      };
      spread(errCur, e + 3, 7 / 16);
      spread(errNext, e - 3, 3 / 16);
      spread(errNext, e, 5 / 16);
      spread(errNext, e + 3, 1 / 16);
    }
    [errCur, errNext] = [errNext, errCur];
  }
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** omggif writes into a fixed buffer; this grows it before each frame so nothing is lost. */
class GrowableGif {
  private buf: Uint8Array;
  private readonly writer: GifWriter;

  constructor(width: number, height: number) {
    this.buf = new Uint8Array(Math.max(64 * 1024, width * height));
    this.writer = new GifWriter(this.buf, width, height, { loop: 0 });
  }

  addFrame(f: PendingFrame, delay: number): void {
    // LZW worst case is 12 bits per pixel, plus sub-block lengths, palette and headers.
    const need = this.writer.getOutputBufferPosition() + f.w * f.h * 2 + 4096;
    if (need > this.buf.length) {
      const bigger = new Uint8Array(Math.max(need, this.buf.length * 2));
      bigger.set(this.buf);
      this.buf = bigger;
      this.writer.setOutputBuffer(this.buf);
    }
    try {
      this.writer.addFrame(f.x, f.y, f.w, f.h, f.indices as unknown as number[], {
        palette: f.palette,
        delay,
        disposal: 1,
        transparent: f.transparent,
      });
    } catch (err) {
      throw new RecorderError(
        'ERR_RECORDER_ENCODE',
        `GIF writer failed: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }

  finish(): Buffer {
    const end = this.writer.end();
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, end);
  }
}
