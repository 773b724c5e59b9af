import { test } from 'node:test';
import assert from 'node:assert/strict';

test('public API is deliberate', async () => {
  const api = await import('../src/index.js');
  assert.deepEqual(Object.keys(api).sort(), [
    'DEFAULT_MAX_BODY_BYTES',
    'ERROR_RESPONSES',
    'ServerError',
    'assertStaticMounts',
    'createApp',
    'createServer',
    'errorResponseFor',
    'expandEnv',
    'noopLogger',
    'staticMountsSchema',
    'toListingEntry',
    'validateStaticMounts',
  ]);
});
