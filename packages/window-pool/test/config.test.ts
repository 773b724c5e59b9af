import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  PERSISTENT_SIZE_MESSAGE,
  PoolError,
  SESSION_RESET_MESSAGE,
  SessionResetError,
  WindowPools,
  detectBrowser,
  detectDisplay,
  isDeadTargetError,
  validatePoolConfig,
} from '../src/index.js';

describe('validatePoolConfig', () => {
  it('injects default: {size: 1} when no pool named default is declared', () => {
    assert.deepEqual(validatePoolConfig(undefined), {
      ok: true,
      value: { pools: { default: { size: 1, persistent: false } } },
    });
    assert.deepEqual(validatePoolConfig({ pools: null }), validatePoolConfig(null));
    const r = validatePoolConfig({ pools: { shop: { size: 1, persistent: true } } });
    assert.deepEqual(r, {
      ok: true,
      value: {
        pools: {
          shop: { size: 1, persistent: true, profile: 'shop' },
          default: { size: 1, persistent: false },
        },
      },
    });
  });

  it('keeps a declared default pool and an endpoint', () => {
    const r = validatePoolConfig({
      pools: { default: { size: 3 }, far: { size: 2, endpoint: 'ws://10.0.0.5:3000/pw' } },
    });
    assert.ok(r.ok);
    assert.deepEqual(r.value.pools.default, { size: 3, persistent: false });
    assert.equal(r.value.pools.far!.endpoint, 'ws://10.0.0.5:3000/pw');
  });

  it('rejects a persistent pool of size 2 with the spec reason', () => {
    const r = validatePoolConfig({ pools: { shop: { size: 2, persistent: true } } });
    assert.deepEqual(r, {
      ok: false,
      diagnostics: [{ path: '/pools/shop/size', message: PERSISTENT_SIZE_MESSAGE }],
    });
    assert.throws(
      () => new WindowPools({ pools: { shop: { size: 2, persistent: true } } }),
      (err: PoolError) => {
        assert.equal(err.code, 'ERR_POOL_CONFIG_INVALID');
        assert.match(err.message, /persistent pools must have size 1/);
        return true;
      },
    );
  });

  it('reports every problem with its path', () => {
    const r = validatePoolConfig({
      pools: {
        a: { size: 0 },
        b: { persistent: true },
        'bad tag': { size: 1 },
        c: { size: 1, colour: 'red' },
        d: { size: 1, endpoint: 'ftp://x' },
      },
      extra: 1,
    });
    assert.equal(r.ok, false);
    const paths = r.ok ? [] : r.diagnostics.map((d) => d.path).sort();
    assert.deepEqual(paths, [
      '',
      '/pools/a/size',
      '/pools/b/size',
      '/pools/bad tag',
      '/pools/c',
      '/pools/d/endpoint',
    ]);
  });

  it('rejects two persistent pools sharing one profile, and profile without persistent', () => {
    const r = validatePoolConfig({
      pools: {
        a: { size: 1, persistent: true, profile: 'p' },
        b: { size: 1, persistent: true, profile: 'p' },
        c: { size: 1, profile: 'q' },
      },
    });
    assert.equal(r.ok, false);
    assert.deepEqual(r.ok ? [] : r.diagnostics.map((d) => d.path), [
      '/pools/b/profile',
      '/pools/c/profile',
    ]);
  });
});

describe('detectBrowser / detectDisplay', () => {
  it('prefers SERVICE_BROWSER, then well-known paths, then PATH', () => {
    assert.equal(detectBrowser({ SERVICE_BROWSER: '/opt/x/chrome' }), '/opt/x/chrome');
    const found = detectBrowser({});
    assert.equal(found, '/usr/bin/chromium');
    const dir = mkdtempSync(join(tmpdir(), 'wp-detect-'));
    try {
      writeFileSync(join(dir, 'google-chrome'), '#!/bin/sh\n');
      chmodSync(join(dir, 'google-chrome'), 0o755);
      // Well-known paths win over PATH; PATH alone is used when they are absent.
      assert.equal(detectBrowser({ PATH: dir }), '/usr/bin/chromium');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows when there is no display', () => {
    assert.equal(detectDisplay({}, 'linux'), false);
    assert.equal(detectDisplay({ DISPLAY: ':0' }, 'linux'), true);
    assert.equal(detectDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux'), true);
    assert.equal(detectDisplay({}, 'darwin'), true);
  });
});

describe('isDeadTargetError / SessionResetError', () => {
  it('classifies Playwright dead-target errors, not ordinary failures', () => {
    for (const msg of [
      'page.evaluate: Target crashed',
      'page.goto: Page crashed',
      'locator.click: Target page, context or browser has been closed',
      'browserContext.newPage: Browser has been closed',
      'Protocol error (Runtime.evaluate): Target closed',
      'WebSocket is not open: readyState 3 (CLOSED)',
      'websocket: close 1006 (abnormal closure)',
      'session deleted because of page crash',
      'target detached',
    ]) {
      assert.equal(isDeadTargetError(new Error(msg)), true, msg);
    }
    const named = new Error('whatever');
    named.name = 'TargetClosedError';
    assert.equal(isDeadTargetError(named), true);
    assert.equal(
      isDeadTargetError(new Error('outer', { cause: new Error('Target crashed') })),
      true,
    );
    for (const msg of [
      'page.waitForSelector: Timeout 10000ms exceeded.',
      'net::ERR_CONNECTION_REFUSED',
      'boom',
    ]) {
      assert.equal(isDeadTargetError(new Error(msg)), false, msg);
    }
    assert.equal(isDeadTargetError(undefined), false);
  });

  it('carries the spec message and code', () => {
    const err = new SessionResetError({
      cause: new Error('Target crashed'),
      poolTag: 'default',
      windowId: 'default-1',
    });
    assert.equal(err.code, 'ERR_POOL_SESSION_RESET');
    assert.equal(err.message, SESSION_RESET_MESSAGE);
    assert.equal(
      SESSION_RESET_MESSAGE,
      'browser session was reset (tab crashed or detached); re-run pool setup...',
    );
    assert.ok(err instanceof PoolError);
    assert.equal(err.windowId, 'default-1');
  });
});

describe('WindowPools without a browser', () => {
  it('refuses acquire before start() and fails start() without an executable', async () => {
    const pools = new WindowPools({ executablePath: undefined, headless: true });
    await assert.rejects(pools.acquire('default'), { code: 'ERR_POOL_NOT_STARTED' });
    const missing = new WindowPools({
      executablePath: '/nonexistent/chromium',
      headless: true,
      downloadsDir: join(tmpdir(), 'wp-missing'),
    });
    await assert.rejects(missing.start(), { code: 'ERR_POOL_LAUNCH_FAILED' });
    await assert.rejects(missing.acquire('default'), { code: 'ERR_POOL_CLOSED' });
  });
});
