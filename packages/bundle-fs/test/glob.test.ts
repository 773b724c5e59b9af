import assert from 'node:assert/strict';
import { test } from 'node:test';
import { globToRegExp, matchGlob, normalizeBundlePath } from '../src/index.js';
import { crc32Portable } from '../src/internal/crc32.js';
import { crc32 as zlibCrc32 } from 'node:zlib';

const CASES: [glob: string, path: string, expected: boolean][] = [
  ['tasks/**/*.task', 'tasks/a.task', true],
  ['tasks/**/*.task', 'tasks/x/y/a.task', true],
  ['tasks/**/*.task', 'tasks/a.yaml', false],
  ['tasks/**/*.task', 'other/tasks/a.task', false],
  ['**/*.js', 'a.js', true],
  ['**/*.js', 'scripts/lib/a.js', true],
  ['**', 'any/thing/at/all', true],
  ['tasks/**', 'tasks/a/b', true],
  ['tasks/**', 'tasksx/a', false],
  ['*', 'pool', true],
  ['*', 'tasks/a.task', false],
  ['*.task', '.hidden.task', true],
  ['?.task', 'a.task', true],
  ['?.task', 'ab.task', false],
  ['{pool,secrets}{,.yaml,.yml,.json}', 'pool', true],
  ['{pool,secrets}{,.yaml,.yml,.json}', 'secrets.yml', true],
  ['{pool,secrets}{,.yaml,.yml,.json}', 'secrets.txt', false],
  ['{tasks/**/,}pool.yaml', 'tasks/pool.yaml', true],
  ['{a,{b,c}}.x', 'c.x', true],
  ['[abc].js', 'b.js', true],
  ['[!abc].js', 'b.js', false],
  ['[!abc].js', 'd.js', true],
  ['a.b', 'axb', false],
  ['a+(b)', 'a+(b)', true],
  ['\\*.js', '*.js', true],
  ['\\*.js', 'x.js', false],
  ['a/*/c', 'a/b/c', true],
  ['a/*/c', 'a/b/d/c', false],
];

test('glob matching', () => {
  for (const [glob, path, expected] of CASES) {
    assert.equal(matchGlob(glob, path), expected, `${glob} vs ${path}`);
  }
});

test('a malformed glob has a stable code', () => {
  assert.throws(() => globToRegExp('{a,b'), { code: 'ERR_BUNDLE_INVALID_GLOB' });
});

test('normalizeBundlePath canonicalises and rejects unsafe paths', () => {
  assert.equal(normalizeBundlePath('./tasks//a.task'), 'tasks/a.task');
  assert.equal(normalizeBundlePath('tasks/./a.task'), 'tasks/a.task');
  for (const bad of ['..', 'a/..', '/a', 'a\\b', 'a\0', 'c:x', '', '.', './']) {
    assert.throws(
      () => normalizeBundlePath(bad),
      { code: 'ERR_BUNDLE_UNSAFE_PATH' },
      JSON.stringify(bad),
    );
  }
});

test('the portable CRC-32 agrees with zlib', () => {
  const data = Buffer.from('The quick brown fox jumps over the lazy dog');
  assert.equal(crc32Portable(data, 0), 0x414fa339);
  if (typeof zlibCrc32 === 'function') assert.equal(crc32Portable(data, 0), zlibCrc32(data));
  assert.equal(
    crc32Portable(data.subarray(10), crc32Portable(data.subarray(0, 10), 0)),
    0x414fa339,
  );
});
