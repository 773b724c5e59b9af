import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WindowPools, type Lease } from '../src/index.js';
import { CHROMIUM, alive, descendants, startSite, until } from './helpers/env.js';

describe('persistent pool (launchPersistentContext, real Chromium)', () => {
  let site: { url: string; server: Server };
  let root: string;
  let pools: WindowPools | undefined;

  const open = async (): Promise<WindowPools> => {
    const p = new WindowPools({
      // Tagged default so no extra shared browser is injected for this test.
      pools: { default: { size: 1, persistent: true, profile: 'shop' } },
      executablePath: CHROMIUM,
      headless: true,
      downloadsDir: join(root, 'downloads'),
      profileDir: join(root, 'profiles'),
      acquireTimeoutMs: 15_000,
      reconnectBackoff: { initialMs: 50, maxMs: 500 },
    });
    await p.start();
    return p;
  };
  const readState = async (lease: Lease): Promise<unknown> => {
    await lease.window.page.goto(site.url);
    return lease.window.page.evaluate(() => [localStorage.getItem('login'), document.cookie]);
  };

  before(async () => {
    site = await startSite();
    root = await mkdtemp(join(tmpdir(), 'wp-persistent-'));
  });

  after(async () => {
    await pools?.close();
    site?.server.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('keeps the profile across a pool restart and leaves no process behind', async () => {
    pools = await open();
    assert.ok(existsSync(join(root, 'profiles', 'shop')));
    const lease = await pools.acquire('default');
    assert.equal(lease.window.persistent, true);
    await lease.window.page.goto(site.url);
    await lease.window.page.evaluate(() => {
      localStorage.setItem('login', 'alice');
      document.cookie = 'session=s1; path=/; max-age=3600';
    });
    await lease.release();
    const [pid] = pools.browserProcessIds();
    const tree = descendants(pid!);
    assert.ok(tree.length > 1);
    await pools.close();
    assert.deepEqual(tree.filter(alive), []);

    pools = await open();
    const again = await pools.acquire('default');
    assert.deepEqual(await readState(again), ['alice', 'session=s1']);
    await again.release();
  });

  it('a crashed tab and a killed browser are replaced; the profile on disk stays intact', async () => {
    assert.ok(pools);
    const lease = await pools.acquire('default');
    await lease.window.page.goto('chrome://crash').catch(() => {});
    await assert.rejects(lease.window.page.evaluate('1'));
    assert.equal(lease.dead, true);
    await lease.release();
    assert.deepEqual(pools.stats().default, { size: 1, free: 1, busy: 0 });
    const afterCrash = await pools.acquire('default');
    assert.deepEqual(await readState(afterCrash), ['alice', 'session=s1']);
    await afterCrash.release();

    const [pid] = pools.browserProcessIds();
    process.kill(pid!, 'SIGKILL');
    await until(
      () => pools!.browserProcessIds().some((p) => p !== pid),
      15_000,
      'persistent browser relaunched',
    );
    await until(() => pools!.stats().default!.free === 1, 15_000, 'window free');
    const afterKill = await pools.acquire('default');
    assert.deepEqual(await readState(afterKill), ['alice', 'session=s1']);
    await afterKill.release();
  });
});
