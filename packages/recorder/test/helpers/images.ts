import { readdirSync, readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';

/** RGBA pixels of a PNG. */
export function decode(png: Buffer): { width: number; height: number; data: Uint8Array } {
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, data: img.data };
}

/** PNG bytes from RGBA pixels. */
export function encode(width: number, height: number, data: Uint8Array): Buffer {
  const png = new PNG({ width, height });
  png.data = Buffer.from(data);
  return PNG.sync.write(png);
}

/** Mean absolute RGB error between two RGBA images over a region (default: everything). */
export function meanAbsError(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  region = { x: 0, y: 0, w: width, h: a.length / 4 / width },
): number {
  let sum = 0;
  for (let y = region.y; y < region.y + region.h; y++) {
    for (let x = region.x; x < region.x + region.w; x++) {
      const o = (y * width + x) * 4;
      sum +=
        Math.abs(a[o]! - b[o]!) + Math.abs(a[o + 1]! - b[o + 1]!) + Math.abs(a[o + 2]! - b[o + 2]!);
    }
  }
  return sum / (region.w * region.h * 3);
}

/** A decoded GIF: the composited canvas after each frame, and each frame's info. */
export function decodeGif(gif: Buffer): {
  width: number;
  height: number;
  loop: number;
  frames: {
    rgba: Uint8Array;
    delay: number;
    x: number;
    y: number;
    w: number;
    h: number;
    transparent: number | null;
  }[];
} {
  const reader = new GifReader(gif);
  const canvas = new Uint8Array(reader.width * reader.height * 4);
  const frames = [];
  for (let i = 0; i < reader.numFrames(); i++) {
    const info = reader.frameInfo(i);
    reader.decodeAndBlitFrameRGBA(i, canvas);
    frames.push({
      rgba: canvas.slice(),
      delay: info.delay,
      x: info.x,
      y: info.y,
      w: info.width,
      h: info.height,
      transparent: info.transparent_index,
    });
  }
  return { width: reader.width, height: reader.height, loop: reader.loopCount(), frames };
}

/** Which GIF frame is on screen at `centis` (centiseconds since the start). */
export function gifFrameAt(delays: number[], centis: number): number {
  let t = 0;
  for (let i = 0; i < delays.length; i++) {
    t += delays[i]!;
    if (centis < t) return i;
  }
  return delays.length - 1;
}

/** PIDs of ffmpeg processes that are children of this process (orphan check, Linux /proc). */
export function childFfmpegPids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = /\((.*)\)/.exec(stat)?.[1];
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'ffmpeg' && ppid === process.pid) out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}
