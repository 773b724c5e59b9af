import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright';
import { encodeGif, encodeMp4, startScreencast, type Frame } from '../src/index.js';
import { launchChromium } from './helpers/browser.js';
import { probeMp4 } from './helpers/ffprobe.js';
import { decode, decodeGif, gifFrameAt, meanAbsError } from './helpers/images.js';
import { serveSteps } from './helpers/site.js';

const VIEWPORT = { width: 800, height: 450 };
const FPS = 5;

let browser: Browser;
let server: Server;
let url: string;

before(async () => {
  ({ url, server } = await serveSteps());
  browser = await launchChromium();
});
after(async () => {
  await browser.close();
  server.close();
});

async function openSteps(): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(url);
  return page;
}

async function setStep(page: Page, n: number): Promise<void> {
  await page.evaluate(
    (step) => (window as unknown as { setStep(n: number): void }).setStep(step),
    n,
  );
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('a 10-step run: capture → GIF and MP4', () => {
  let frames: Frame[];

  before(async () => {
    const page = await openSteps();
    try {
      const cast = await startScreencast(page, { fps: FPS });
      assert.equal(cast.method, 'cdp');
      await sleep(400);
      for (let n = 1; n <= 10; n++) {
        await setStep(page, n);
        // Each step stays on screen for more than two ticks, so every step is captured.
        await sleep(500);
      }
      frames = await cast.stop();
      assert.equal(cast.frameCount, frames.length);
      assert.equal(cast.stopReason, 'stopped');
    } finally {
      await page.close();
    }
  });

  test('frames are resampled to fps and show every step', () => {
    assert.ok(frames.length >= 25, `${frames.length} frames`);
    for (let i = 1; i < frames.length; i++) {
      assert.equal(frames[i]!.timestampMs - frames[i - 1]!.timestampMs, 1000 / FPS);
    }
    // The initial state plus ten steps; idle ticks repeat the previous frame.
    assert.equal(new Set(frames.map((f) => f.png.toString('base64'))).size, 11);
    const { width, height } = decode(frames[0]!.png);
    assert.deepEqual({ width, height }, VIEWPORT);
  });

  test('the GIF is legible: every displayed frame matches its source PNG', async () => {
    const gif = await encodeGif(frames, { fps: FPS, quality: 80 });
    const decoded = decodeGif(gif);
    assert.equal(decoded.width, VIEWPORT.width);
    assert.equal(decoded.height, VIEWPORT.height);
    assert.equal(decoded.loop, 0);
    assert.equal(decoded.frames.length, 11, 'repeated frames are merged into longer delays');
    const delays = decoded.frames.map((f) => f.delay);
    assert.equal(
      delays.reduce((a, b) => a + b, 0),
      (frames.length * 100) / FPS,
    );
    // The heading "Step n of 10" and the sentence under it.
    const textRegion = { x: 0, y: 70, w: 700, h: 170 };
    for (const [i, frame] of frames.entries()) {
      const shown = decoded.frames[gifFrameAt(delays, (i * 100) / FPS)]!.rgba;
      const source = decode(frame.png).data;
      const all = meanAbsError(shown, source, VIEWPORT.width);
      const text = meanAbsError(shown, source, VIEWPORT.width, textRegion);
      assert.ok(all < 1.5, `frame ${i}: mean error ${all.toFixed(2)}`);
      assert.ok(text < 3, `frame ${i}: text-region error ${text.toFixed(2)}`);
    }
    // Later frames store only what changed (the step text and the bar), not the whole page.
    assert.ok(
      decoded.frames.slice(1).every((f) => f.w * f.h < (VIEWPORT.width * VIEWPORT.height) / 2),
    );
  });

  test('the MP4 is accepted by ffprobe: h264, every frame', async () => {
    const mp4 = await encodeMp4(frames, { fps: FPS, quality: 80 });
    const video = await probeMp4(mp4);
    assert.equal(video.codec_name, 'h264');
    assert.equal(video.width, VIEWPORT.width);
    assert.equal(video.height, VIEWPORT.height);
    assert.equal(Number(video.nb_frames), frames.length);
  });
});

describe('startScreencast', () => {
  test('an idle page still yields one frame per tick (the last frame is repeated)', async () => {
    const page = await openSteps();
    try {
      const cast = await startScreencast(page, { fps: 10 });
      await sleep(1000);
      const frames = await cast.stop();
      assert.ok(frames.length >= 3, `${frames.length} frames`);
      assert.equal(new Set(frames.map((f) => f.png)).size, 1, 'one PNG, repeated');
    } finally {
      await page.close();
    }
  });

  test('maxFrames ends the capture', async () => {
    const page = await openSteps();
    try {
      const cast = await startScreencast(page, { fps: 10, maxFrames: 3 });
      await sleep(300);
      await setStep(page, 1);
      await sleep(700);
      assert.equal(cast.stopped, true);
      assert.equal(cast.stopReason, 'maxFrames');
      assert.equal(cast.frameCount, 3);
      assert.equal((await cast.stop()).length, 3);
    } finally {
      await page.close();
    }
  });

  test('maxDurationMs ends the capture', async () => {
    const page = await openSteps();
    try {
      const cast = await startScreencast(page, { fps: 10, maxDurationMs: 300 });
      await sleep(800);
      assert.equal(cast.stopReason, 'maxDuration');
      const frames = await cast.stop();
      assert.ok(frames.length >= 1 && frames.length <= 3, `${frames.length} frames`);
      assert.ok(frames.every((f) => f.timestampMs < 300));
    } finally {
      await page.close();
    }
  });

  test('stop() is idempotent and detaches: the page can be recorded again', async () => {
    const page = await openSteps();
    try {
      const first = await startScreencast(page, { fps: 10 });
      await sleep(300);
      const a = await first.stop();
      const b = await first.stop();
      assert.equal(a, b);
      assert.ok(a.length > 0);
      const again = await startScreencast(page, { fps: 10, method: 'cdp' });
      await setStep(page, 7);
      await sleep(300);
      const frames = await again.stop();
      assert.ok(frames.length > 0);
      assert.notEqual(frames.at(-1)!.png.toString('base64'), a.at(-1)!.png.toString('base64'));
    } finally {
      await page.close();
    }
  });

  test('screenshot fallback captures the page at fps', async () => {
    const page = await openSteps();
    try {
      const cast = await startScreencast(page, { fps: 5, method: 'screenshot' });
      assert.equal(cast.method, 'screenshot');
      await sleep(500);
      await setStep(page, 3);
      await sleep(600);
      const frames = await cast.stop();
      assert.ok(frames.length >= 2, `${frames.length} frames`);
      assert.deepEqual(
        { width: decode(frames[0]!.png).width, height: decode(frames[0]!.png).height },
        VIEWPORT,
      );
      assert.ok(
        new Set(frames.map((f) => f.png.toString('base64'))).size >= 2,
        'the step change is captured',
      );
    } finally {
      await page.close();
    }
  });

  test('an abort signal ends the capture; stop() returns what was taken', async () => {
    const page = await openSteps();
    try {
      const controller = new AbortController();
      const cast = await startScreencast(page, { fps: 10, signal: controller.signal });
      await sleep(400);
      controller.abort();
      assert.equal(cast.stopReason, 'aborted');
      const count = cast.frameCount;
      await sleep(300);
      assert.equal(cast.frameCount, count, 'no frames after the abort');
      assert.equal((await cast.stop()).length, count);
      assert.ok(count > 0);
    } finally {
      await page.close();
    }
  });

  test('a page that crashes mid-capture: stop() still returns the frames', async () => {
    const page = await openSteps();
    try {
      const cast = await startScreencast(page, { fps: 10 });
      await sleep(400);
      const crashed = new Promise((resolve) => page.once('crash', resolve));
      const cdp = await page.context().newCDPSession(page);
      // Page.crash never answers (platform notes): do not await it.
      cdp.send('Page.crash').catch(() => undefined);
      await crashed;
      assert.equal(cast.stopReason, 'crashed');
      const frames = await cast.stop();
      assert.ok(frames.length > 0);
      assert.doesNotThrow(() => decode(frames[0]!.png));
    } finally {
      await page.close();
    }
  });

  test('refuses bad options, an aborted signal and a closed page with stable codes', async () => {
    const page = await openSteps();
    await assert.rejects(startScreencast(page, { fps: 0 }), {
      code: 'ERR_RECORDER_INVALID_OPTIONS',
    });
    await assert.rejects(startScreencast(page, { maxFrames: 0 }), {
      code: 'ERR_RECORDER_INVALID_OPTIONS',
    });
    await assert.rejects(startScreencast(page, { signal: AbortSignal.abort() }), {
      code: 'ERR_RECORDER_ABORTED',
    });
    await page.close();
    await assert.rejects(startScreencast(page), { code: 'ERR_RECORDER_CAPTURE' });
  });
});
