import assert from 'node:assert/strict';
import { it } from 'node:test';

it('exports exactly the public API', async () => {
  const names = Object.keys(await import('../src/index.js')).sort();
  assert.deepEqual(names, [
    'DEFAULT_POOL_TAG',
    'PERSISTENT_SIZE_MESSAGE',
    'PoolError',
    'SERVER_CHROMIUM_ARGS',
    'SESSION_RESET_MESSAGE',
    'SessionResetError',
    'WindowPools',
    'detectBrowser',
    'detectDisplay',
    'isDeadTargetError',
    'noopLogger',
    'poolConfigSchema',
    'validatePoolConfig',
  ]);
});
