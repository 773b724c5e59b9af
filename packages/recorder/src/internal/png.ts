import { PNG } from 'pngjs';
import { RecorderError } from '../errors.js';

/** An RGBA image in memory (4 bytes per pixel, row-major, no padding). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, without decoding it. */
export function pngSize(png: Buffer, index: number): { width: number; height: number } {
  if (
    png.length < 24 ||
    !png.subarray(0, 8).equals(PNG_SIGNATURE) ||
    png.toString('latin1', 12, 16) !== 'IHDR'
  ) {
    throw new RecorderError(
      'ERR_RECORDER_INVALID_FRAME',
      `frame ${index} is not a PNG (expected the PNG signature and an IHDR chunk)`,
    );
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes a PNG to RGBA. @throws ERR_RECORDER_INVALID_FRAME */
export function decodePng(png: Buffer, index: number): RgbaImage {
  pngSize(png, index);
  try {
    const img = PNG.sync.read(png);
    // Small Buffers may sit at an unaligned offset of Node's pool; callers view them as Uint32.
    const data = img.data.byteOffset % 4 === 0 ? img.data : new Uint8Array(img.data);
    return { width: img.width, height: img.height, data };
  } catch (err) {
    throw new RecorderError(
      'ERR_RECORDER_INVALID_FRAME',
      `frame ${index} is not a decodable PNG: ${(err as Error).message}`,
      { cause: err },
    );
  }
}

/** Encodes RGBA to PNG (tests, benchmarks and resized frames). */
export function encodePng(img: RgbaImage): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return PNG.sync.write(png);
}

/**
 * Area-averaging resize (a box filter with fractional coverage), separable: good for
 * downscaling text without the aliasing of nearest-neighbour.
 */
export function resizeRgba(src: RgbaImage, width: number, height: number): RgbaImage {
  if (src.width === width && src.height === height) return src;
  const tmp = new Float32Array(width * src.height * 4);
  resample(src.data, src.width, src.height, tmp, width, true);
  const out = new Float32Array(width * height * 4);
  resample(tmp, width, src.height, out, height, false);
  const data = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) data[i] = Math.min(255, Math.max(0, Math.round(out[i]!)));
  return { width, height, data };
}

/** One pass of the box filter along x (`horizontal`) or y. */
function resample(
  src: ArrayLike<number>,
  sw: number,
  sh: number,
  dst: Float32Array,
  dn: number,
  horizontal: boolean,
): void {
  const sn = horizontal ? sw : sh;
  const lines = horizontal ? sh : sw;
  const scale = sn / dn;
  const stride = horizontal ? 4 : sw * 4;
  for (let d = 0; d < dn; d++) {
    const start = d * scale;
    const end = Math.min(sn, start + scale);
    for (let line = 0; line < lines; line++) {
      const base = horizontal ? line * sw * 4 : line * 4;
      const dbase = horizontal ? line * dn * 4 + d * 4 : d * sw * 4 + line * 4;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let total = 0;
      for (let s = Math.floor(start); s < end; s++) {
        const w = Math.min(s + 1, end) - Math.max(s, start);
        const o = base + s * stride;
        r += src[o]! * w;
        g += src[o + 1]! * w;
        b += src[o + 2]! * w;
        a += src[o + 3]! * w;
        total += w;
      }
      dst[dbase] = r / total;
      dst[dbase + 1] = g / total;
      dst[dbase + 2] = b / total;
      dst[dbase + 3] = a / total;
    }
  }
}
