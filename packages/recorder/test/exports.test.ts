import assert from 'node:assert/strict';
import { test } from 'node:test';

test('public API is deliberate (exports snapshot)', async () => {
  const api = await import('../src/index.js');
  assert.deepEqual(Object.keys(api).sort(), [
    'DEFAULT_FFMPEG_TIMEOUT_MS',
    'MAX_FPS',
    'RECORD_DEFAULTS',
    'RecorderError',
    'encodeGif',
    'encodeMp4',
    'ffmpegMissingMessage',
    'findFfmpeg',
    'gifQualitySettings',
    'mp4Crf',
    'noopLogger',
    'startScreencast',
  ]);
  assert.deepEqual(api.RECORD_DEFAULTS, {
    fps: 5,
    quality: 80,
    maxFrames: 300,
    maxDurationMs: 30_000,
  });
});
