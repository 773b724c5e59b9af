import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SessionResetError, WindowPools, isDeadTargetError } from '../src/index.js';
import { CHROMIUM, alive, descendants, until } from './helpers/env.js';

describe('dead targets and browser death (pool of 2, real Chromium)', () => {
  let pools: WindowPools;
  let downloads: string;
  const replaced: string[] = [];

  before(async () => {
    downloads = await mkdtemp(join(tmpdir(), 'wp-crash-'));
    pools = new WindowPools({
      pools: { default: { size: 2 } },
      executablePath: CHROMIUM,
      headless: true,
      downloadsDir: downloads,
      acquireTimeoutMs: 15_000,
      reconnectBackoff: { initialMs: 50, maxMs: 500 },
    });
    pools.on('replaced', (e) => replaced.push(`${e.windowId}:${e.reason}`));
    await pools.start();
  });

  after(async () => {
    await pools?.close();
    if (downloads) rmSync(downloads, { recursive: true, force: true });
  });

  it('a crashed tab fails the run with SessionResetError and is replaced under the same id', async () => {
    const lease = await pools.acquire('default');
    const { id, generation } = lease.window;
    const page = lease.window.page;
    await page.goto('chrome://crash').catch(() => {});
    let caught: unknown;
    try {
      await page.evaluate('document.title');
    } catch (err) {
      caught = lease.toSessionError(err);
    }
    assert.ok(caught instanceof SessionResetError);
    assert.equal(caught.code, 'ERR_POOL_SESSION_RESET');
    assert.ok(
      caught.message.startsWith(
        'browser session was reset (tab crashed or detached); re-run pool setup...',
      ),
    );
    assert.ok(isDeadTargetError(caught.cause));
    assert.equal(lease.dead, true);
    await lease.release();
    assert.ok(replaced.includes(`${id}:dead target`));
    assert.deepEqual(pools.stats().default, { size: 2, free: 2, busy: 0 });
    // Next leases work, the window kept its id and got a fresh page.
    const leases = await Promise.all([pools.acquire('default'), pools.acquire('default')]);
    const again = leases.find((l) => l.window.id === id)!;
    assert.ok(again.window.generation > generation);
    assert.equal(await again.window.page.evaluate('1 + 1'), 2);
    await Promise.all(leases.map((l) => l.release()));
  });

  it('a crash on a free window is replaced at once; a page closed by the run on release', async () => {
    const lease = await pools.acquire('default');
    const { id } = lease.window;
    const cdp = await lease.window.context.newCDPSession(lease.window.page);
    await lease.release();
    // Page.crash never resolves (platform-notes): do not await it.
    void cdp.send('Page.crash').catch(() => {});
    await until(
      () => replaced.filter((r) => r === `${id}:renderer crashed`).length === 1,
      10_000,
      'replacement',
    );
    await until(() => pools.stats().default!.free === 2, 5_000, 'free again');

    const closer = await pools.acquire('default');
    await closer.window.page.close();
    assert.equal(closer.dead, true);
    await closer.release();
    assert.deepEqual(pools.stats().default, { size: 2, free: 2, busy: 0 });
    const all = await Promise.all([pools.acquire('default'), pools.acquire('default')]);
    for (const l of all) assert.equal(await l.window.page.evaluate('2 + 2'), 4);
    await Promise.all(all.map((l) => l.release()));
  });

  it('kill -9 of the browser: relaunched, every window replaced, a held lease fails', async () => {
    const [oldPid] = pools.browserProcessIds();
    assert.ok(oldPid !== undefined);
    const oldTree = descendants(oldPid);
    const held = await pools.acquire('default');
    process.kill(oldPid, 'SIGKILL');
    await assert.rejects(held.window.page.evaluate('1'), (err) => isDeadTargetError(err));
    assert.ok(held.toSessionError(new Error('anything')) instanceof SessionResetError);
    await held.release();
    await until(() => pools.stats().default!.free === 2, 15_000, 'both windows back');
    const [newPid] = pools.browserProcessIds();
    assert.ok(newPid !== undefined && newPid !== oldPid);
    await until(() => oldTree.every((p) => !alive(p)), 5_000, 'old Chromium processes gone');
    const leases = await Promise.all([pools.acquire('default'), pools.acquire('default')]);
    assert.deepEqual(leases.map((l) => l.window.id).sort(), ['default-1', 'default-2']);
    for (const l of leases) assert.equal(await l.window.page.evaluate('3 + 3'), 6);
    await Promise.all(leases.map((l) => l.release()));
    assert.deepEqual(pools.stats().default, { size: 2, free: 2, busy: 0 });
  });

  it('close() leaves no Chromium process behind and fails waiters', async () => {
    const [pid] = pools.browserProcessIds();
    const tree = descendants(pid!);
    assert.ok(tree.length > 2, `browser tree before close: ${tree.length}`);
    const leases = await Promise.all([pools.acquire('default'), pools.acquire('default')]);
    const waiter = assert.rejects(pools.acquire('default'), { code: 'ERR_POOL_CLOSED' });
    await pools.close();
    await waiter;
    assert.deepEqual(tree.filter(alive), []);
    await Promise.all(leases.map((l) => l.release())); // no-ops after close
    await pools.close(); // idempotent
    await assert.rejects(pools.acquire('default'), { code: 'ERR_POOL_CLOSED' });
  });
});
