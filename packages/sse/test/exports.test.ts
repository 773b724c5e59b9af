import { test } from 'node:test';
import assert from 'node:assert/strict';

test('public API is deliberate', async () => {
  const api = await import('../src/index.js');
  assert.deepEqual(Object.keys(api).sort(), [
    'DEFAULT_HEARTBEAT_MS',
    'SSE_HEADERS',
    'SseError',
    'SseStream',
    'formatComment',
    'formatEvent',
    'noopLogger',
  ]);
});
