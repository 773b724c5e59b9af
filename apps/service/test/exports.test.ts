import assert from 'node:assert/strict';
import { test } from 'node:test';

test('public API is deliberate', async () => {
  const names = Object.keys(await import('../src/index.js')).sort();
  assert.deepEqual(names, [
    'CONFIG_FILE_NAMES',
    'ENV_DEFAULTS',
    'EXIT',
    'LOG_LEVELS',
    'PUBLISHED_ENV_NAMES',
    'STARTER_FILES',
    'ServiceError',
    'checkBundle',
    'commands',
    'configFileCandidates',
    'createBundleZip',
    'createServiceLogger',
    'formatProblem',
    'isLoopbackHost',
    'loadBundleConfig',
    'main',
    'noopLogger',
    'publishedEnv',
    'readServiceConfig',
    'startService',
    'writeStarterBundle',
  ]);
});
