import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encodeMp4, findFfmpeg, mp4Crf, type Frame } from '../src/index.js';
import { probeMp4 } from './helpers/ffprobe.js';
import { childFfmpegPids, encode } from './helpers/images.js';

let scratch: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'recorder-mp4-test-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Frames of a moving block on white. */
function movingBlock(count: number, w: number, h: number): Frame[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Uint8Array(w * h * 4).fill(255);
    for (let y = 10; y < 30; y++) {
      for (let x = i * 5; x < i * 5 + 20 && x < w; x++) {
        const o = (y * w + x) * 4;
        d[o] = 30;
        d[o + 1] = 60;
        d[o + 2] = 200;
      }
    }
    return { png: encode(w, h, d), timestampMs: i * 200 };
  });
}

/** One 1280×720 noise frame repeated: slow enough for ffmpeg to still be running when aborted. */
function heavyFrames(count: number): Frame[] {
  const w = 1280;
  const h = 720;
  const d = new Uint8Array(w * h * 4);
  let seed = 7;
  for (let i = 0; i < d.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    d[i] = i % 4 === 3 ? 255 : seed >> 16;
  }
  const png = encode(w, h, d);
  return Array.from({ length: count }, (_, i) => ({ png, timestampMs: i * 200 }));
}

async function tempDirsLeft(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((n) => n.startsWith('browsertask-mp4-'));
}

describe('encodeMp4', () => {
  test('writes an H.264 yuv420p MP4 that ffprobe accepts, scaled to even dimensions', async () => {
    const mp4 = await encodeMp4(movingBlock(10, 101, 75), { fps: 5, quality: 80 });
    assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp');
    const video = await probeMp4(mp4);
    assert.equal(video.codec_name, 'h264');
    assert.equal(video.pix_fmt, 'yuv420p');
    assert.equal(video.width, 100);
    assert.equal(video.height, 74);
    assert.equal(video.r_frame_rate, '5/1');
    assert.equal(Number(video.nb_frames), 10);
  });

  test('maxWidth downscales', async () => {
    const video = await probeMp4(await encodeMp4(movingBlock(3, 200, 100), { maxWidth: 100 }));
    assert.equal(video.width, 100);
    assert.equal(video.height, 50);
  });

  test('no ffmpeg: ERR_RECORDER_FFMPEG_MISSING says what is needed and how to get it', async () => {
    const err = await encodeMp4(movingBlock(2, 32, 32), {
      ffmpegPath: join(scratch, 'no-such-ffmpeg'),
    }).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e as { code: string; message: string },
    );
    assert.equal(err.code, 'ERR_RECORDER_FFMPEG_MISSING');
    assert.match(err.message, /needs ffmpeg/);
    assert.match(err.message, /apt-get install ffmpeg/);
    assert.match(err.message, /ffmpegPath/);
    assert.deepEqual(await tempDirsLeft(), []);
  });

  test('ffmpeg failing: ERR_RECORDER_ENCODE with the tail of its stderr', async () => {
    const fake = join(scratch, 'failing-ffmpeg');
    await writeFile(
      fake,
      '#!/bin/sh\ncat > /dev/null\necho "first line" >&2\necho "Unknown encoder libx264" >&2\nexit 3\n',
    );
    await chmod(fake, 0o755);
    await assert.rejects(
      encodeMp4(movingBlock(2, 32, 32), { ffmpegPath: fake }),
      (err: Error & { code: string }) => {
        assert.equal(err.code, 'ERR_RECORDER_ENCODE');
        assert.match(err.message, /exit code 3/);
        assert.match(err.message, /Unknown encoder libx264/);
        return true;
      },
    );
  });

  test('abort kills ffmpeg: ERR_RECORDER_ABORTED, no orphan process, no temp dir left', async () => {
    const controller = new AbortController();
    const encoding = encodeMp4(heavyFrames(300), { signal: controller.signal });
    // Abort once ffmpeg is really running.
    for (let i = 0; i < 100 && childFfmpegPids().length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(childFfmpegPids().length > 0, 'ffmpeg was started');
    controller.abort();
    await assert.rejects(encoding, { code: 'ERR_RECORDER_ABORTED' });
    assert.deepEqual(childFfmpegPids(), []);
    assert.deepEqual(await tempDirsLeft(), []);
  });

  test('timeoutMs kills a slow ffmpeg: ERR_RECORDER_ENCODE', async () => {
    await assert.rejects(
      encodeMp4(heavyFrames(300), { timeoutMs: 150 }),
      (err: Error & { code: string }) => {
        assert.equal(err.code, 'ERR_RECORDER_ENCODE');
        assert.match(err.message, /did not finish within 150 ms/);
        return true;
      },
    );
    assert.deepEqual(childFfmpegPids(), []);
  });

  test('bad input is refused before ffmpeg starts', async () => {
    await assert.rejects(encodeMp4([]), { code: 'ERR_RECORDER_NO_FRAMES' });
    await assert.rejects(encodeMp4([{ png: Buffer.from('GIF89a'), timestampMs: 0 }]), {
      code: 'ERR_RECORDER_INVALID_FRAME',
    });
    await assert.rejects(encodeMp4(movingBlock(1, 8, 8), { quality: 101 }), {
      code: 'ERR_RECORDER_INVALID_OPTIONS',
    });
  });

  test('quality maps linearly to CRF 51…18', () => {
    assert.equal(mp4Crf(1), 51);
    assert.equal(mp4Crf(100), 18);
    assert.equal(mp4Crf(80), 25);
  });
});

describe('findFfmpeg', () => {
  test('an explicit path wins when it is executable, else undefined', async () => {
    const fake = join(scratch, 'my-ffmpeg');
    await writeFile(fake, '#!/bin/sh\n');
    await chmod(fake, 0o755);
    assert.equal(await findFfmpeg(fake), fake);
    assert.equal(await findFfmpeg(join(scratch, 'missing')), undefined);
    const notExec = join(scratch, 'not-exec');
    await writeFile(notExec, '');
    await chmod(notExec, 0o644);
    assert.equal(await findFfmpeg(notExec), undefined);
  });

  test('searches a PATH-style list', async () => {
    const bin = join(scratch, 'bin');
    await rm(bin, { recursive: true, force: true });
    await mkdir(bin);
    await writeFile(join(bin, 'ffmpeg'), '#!/bin/sh\n');
    await chmod(join(bin, 'ffmpeg'), 0o755);
    assert.equal(
      await findFfmpeg(undefined, `${join(scratch, 'nothing')}:${bin}`),
      join(bin, 'ffmpeg'),
    );
    assert.equal(await findFfmpeg(undefined, join(scratch, 'nothing')), undefined);
    assert.equal(await findFfmpeg(undefined, ''), undefined);
    // The test machine has ffmpeg on PATH (set-up installs it).
    assert.match((await findFfmpeg()) ?? '', /\/ffmpeg$/);
  });
});
