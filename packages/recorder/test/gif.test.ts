import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeGif, gifQualitySettings, type Frame } from '../src/index.js';
import { decode, decodeGif, encode, meanAbsError } from './helpers/images.js';

const W = 160;
const H = 90;

/** A white canvas with a coloured block; `paint` may draw more. */
function image(
  paint: (d: Uint8Array, w: number, h: number) => void,
  w = W,
  h = H,
): { png: Buffer; rgba: Uint8Array } {
  const d = new Uint8Array(w * h * 4).fill(255);
  paint(d, w, h);
  return { png: encode(w, h, d), rgba: decode(encode(w, h, d)).data };
}

function fillRect(
  d: Uint8Array,
  w: number,
  x0: number,
  y0: number,
  rw: number,
  rh: number,
  rgb: number[],
): void {
  for (let y = y0; y < y0 + rh; y++) {
    for (let x = x0; x < x0 + rw; x++) {
      const o = (y * w + x) * 4;
      d[o] = rgb[0]!;
      d[o + 1] = rgb[1]!;
      d[o + 2] = rgb[2]!;
    }
  }
}

/** A photo-like image with thousands of colours. */
function gradient(d: Uint8Array, w: number, h: number): void {
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      d[o] = Math.round((x / w) * 255);
      d[o + 1] = Math.round((y / h) * 255);
      d[o + 2] = Math.round(((x + y) / (w + h)) * 255);
    }
  }
}

const frames = (pngs: Buffer[], fps = 5): Frame[] =>
  pngs.map((png, i) => ({ png, timestampMs: Math.round((i * 1000) / fps) }));

describe('encodeGif', () => {
  test('loops forever, keeps the frame size and derives delays from fps', async () => {
    const a = image((d, w) => fillRect(d, w, 10, 10, 20, 20, [200, 0, 0]));
    const b = image((d, w) => fillRect(d, w, 40, 10, 20, 20, [0, 150, 0]));
    const c = image((d, w) => fillRect(d, w, 70, 10, 20, 20, [0, 0, 220]));
    const gif = decodeGif(await encodeGif(frames([a.png, b.png, c.png], 4), { fps: 4 }));
    assert.equal(gif.width, W);
    assert.equal(gif.height, H);
    assert.equal(gif.loop, 0);
    assert.deepEqual(
      gif.frames.map((f) => f.delay),
      [25, 25, 25],
    );
    for (const [i, src] of [a, b, c].entries()) {
      assert.ok(
        meanAbsError(gif.frames[i]!.rgba, src.rgba, W) < 0.5,
        `frame ${i} matches its source`,
      );
    }
  });

  test('merges identical consecutive frames into one longer delay (total time is kept)', async () => {
    const a = image((d, w) => fillRect(d, w, 10, 10, 20, 20, [200, 0, 0]));
    const b = image((d, w) => fillRect(d, w, 10, 10, 20, 20, [0, 0, 200]));
    // a, a (a new but identical Buffer), a, b, b at 3 fps: 33.3 cs per frame.
    const a2 = Buffer.from(a.png);
    const gif = decodeGif(await encodeGif(frames([a.png, a2, a.png, b.png, b.png], 3), { fps: 3 }));
    assert.equal(gif.frames.length, 2);
    assert.deepEqual(
      gif.frames.map((f) => f.delay),
      [100, 67],
    );
  });

  test('stores only the changed rectangle, with transparency for unchanged pixels inside it', async () => {
    const base = (d: Uint8Array, w: number, h: number): void => gradient(d, w, h);
    const a = image(base);
    // Two small changes in opposite corners: the rectangle spans them, the middle is unchanged.
    const b = image((d, w, h) => {
      base(d, w, h);
      fillRect(d, w, 5, 5, 6, 6, [0, 0, 0]);
      fillRect(d, w, 140, 70, 6, 6, [0, 0, 0]);
    });
    const gif = decodeGif(await encodeGif(frames([a.png, b.png]), { fps: 5 }));
    const second = gif.frames[1]!;
    assert.deepEqual(
      { x: second.x, y: second.y, w: second.w, h: second.h },
      { x: 5, y: 5, w: 141, h: 71 },
    );
    assert.notEqual(second.transparent, null);
    assert.ok(meanAbsError(second.rgba, b.rgba, W) < 4);
  });

  test('a real quantiser: a many-colour image stays close at quality 80, and quality trades size', async () => {
    const g = image(gradient);
    const hi = await encodeGif(frames([g.png]), { quality: 80 });
    const lo = await encodeGif(frames([g.png]), { quality: 10 });
    const errHi = meanAbsError(decodeGif(hi).frames[0]!.rgba, g.rgba, W);
    const errLo = meanAbsError(decodeGif(lo).frames[0]!.rgba, g.rgba, W);
    assert.ok(errHi < 4, `quality 80 error ${errHi}`);
    assert.ok(errLo < 12, `quality 10 error ${errLo}`);
    assert.ok(errHi < errLo, 'more colours are closer');
    assert.ok(lo.length < hi.length, 'fewer colours make a smaller file');
  });

  test('quality 90+ dithers and still matches the source closely', async () => {
    const g = image(gradient);
    const gif = decodeGif(await encodeGif(frames([g.png]), { quality: 95 }));
    assert.ok(meanAbsError(gif.frames[0]!.rgba, g.rgba, W) < 5);
  });

  test('maxWidth downscales keeping the aspect ratio; other sizes are fitted to the canvas', async () => {
    const big = image((d, w) => fillRect(d, w, 0, 0, 200, 100, [0, 0, 0]), 400, 200);
    const other = image((d, w) => fillRect(d, w, 0, 0, 10, 10, [255, 0, 0]), 300, 300);
    const gif = decodeGif(await encodeGif(frames([big.png, other.png]), { maxWidth: 200 }));
    assert.equal(gif.width, 200);
    assert.equal(gif.height, 100);
    const px = gif.frames[0]!.rgba;
    assert.deepEqual([...px.subarray(0, 3)], [0, 0, 0], 'top-left is the black block');
    const o = (99 * 200 + 199) * 4;
    assert.deepEqual([...px.subarray(o, o + 3)], [255, 255, 255], 'bottom-right stays white');
    assert.equal(gif.frames.length, 2);
  });

  test('tiny and odd-sized frames encode', async () => {
    const one = image(() => undefined, 1, 1);
    const gif = decodeGif(await encodeGif(frames([one.png])));
    assert.equal(gif.width, 1);
    assert.equal(gif.frames.length, 1);
  });

  test('quality maps to palette size and dithering', () => {
    assert.deepEqual(gifQualitySettings(100), { colors: 256, dither: true });
    assert.deepEqual(gifQualitySettings(80), { colors: 256, dither: false });
    assert.deepEqual(gifQualitySettings(50), { colors: 128, dither: false });
    assert.deepEqual(gifQualitySettings(30), { colors: 64, dither: false });
    assert.deepEqual(gifQualitySettings(1), { colors: 32, dither: false });
  });

  test('errors carry stable codes', async () => {
    const ok = image(() => undefined);
    await assert.rejects(encodeGif([]), { code: 'ERR_RECORDER_NO_FRAMES' });
    await assert.rejects(encodeGif([{ png: Buffer.from('not a png'), timestampMs: 0 }]), {
      code: 'ERR_RECORDER_INVALID_FRAME',
    });
    const truncated = ok.png.subarray(0, 40);
    await assert.rejects(encodeGif([{ png: truncated, timestampMs: 0 }]), {
      code: 'ERR_RECORDER_INVALID_FRAME',
    });
    await assert.rejects(encodeGif(frames([ok.png]), { quality: 0 }), {
      code: 'ERR_RECORDER_INVALID_OPTIONS',
    });
    await assert.rejects(encodeGif(frames([ok.png]), { fps: 0 }), {
      code: 'ERR_RECORDER_INVALID_OPTIONS',
    });
    await assert.rejects(encodeGif(frames([ok.png]), { signal: AbortSignal.abort() }), {
      code: 'ERR_RECORDER_ABORTED',
    });
  });
});
