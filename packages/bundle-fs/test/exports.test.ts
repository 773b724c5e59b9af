import assert from 'node:assert/strict';
import { test } from 'node:test';

test('public API snapshot', async () => {
  const names = Object.keys(await import('../src/index.js')).sort();
  assert.deepEqual(names, [
    'BundleError',
    'DEFAULT_BUNDLE_LIMITS',
    'DirectoryBundle',
    'ZipBundle',
    'globToRegExp',
    'isBundleError',
    'matchGlob',
    'noopLogger',
    'normalizeBundlePath',
    'openBundle',
    'unsafePathReason',
  ]);
});
