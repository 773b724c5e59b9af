import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WindowPools, type Lease } from '../src/index.js';
import { CHROMIUM, descendants, startSite, until } from './helpers/env.js';

describe('leasing (one pool of 3 + one of 1, real Chromium)', () => {
  let pools: WindowPools;
  let site: { url: string; server: Server };
  let downloads: string;
  const events: string[] = [];

  before(async () => {
    site = await startSite();
    downloads = await mkdtemp(join(tmpdir(), 'wp-leasing-'));
    pools = new WindowPools({
      pools: { default: { size: 3 }, solo: { size: 1 } },
      executablePath: CHROMIUM,
      headless: true,
      downloadsDir: downloads,
      acquireTimeoutMs: 400,
    });
    for (const name of [
      'leased',
      'released',
      'waiting',
      'replaced',
      'timeout',
      'collected',
    ] as const) {
      pools.on(name, () => events.push(name));
    }
    await pools.start();
  });

  after(async () => {
    await pools?.close();
    site?.server.close();
    if (downloads) rmSync(downloads, { recursive: true, force: true });
  });

  it('pre-allocates every window before start() resolves', () => {
    assert.deepEqual(pools.stats(), {
      default: { size: 3, free: 3, busy: 0 },
      solo: { size: 1, free: 1, busy: 0 },
    });
    const [pid] = pools.browserProcessIds();
    assert.ok(pid !== undefined && descendants(pid).length > 1, 'a running Chromium tree');
    for (const id of ['default-1', 'default-2', 'default-3', 'solo-1']) {
      const tag = id.split('-')[0]!;
      assert.ok(existsSync(join(downloads, tag, id)), `downloads dir of ${id}`);
    }
  });

  it('leases distinct windows, then fails with the spec message after the timeout', async () => {
    const leases = await Promise.all([1, 2, 3].map(() => pools.acquire('default')));
    assert.deepEqual(new Set(leases.map((l) => l.window.id)).size, 3);
    assert.deepEqual(pools.stats().default, { size: 3, free: 0, busy: 3 });
    await assert.rejects(pools.acquire('default'), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'ERR_POOL_ACQUIRE_TIMEOUT');
      assert.equal(err.message, 'acquire timeout: default');
      return true;
    });
    assert.equal(pools.detailedStats().default!.timeoutsTotal, 1);
    await Promise.all(leases.map((l) => l.release()));
    assert.deepEqual(pools.stats().default, { size: 3, free: 3, busy: 0 });
  });

  it('serves waiters in FIFO order', async () => {
    const holders = await Promise.all([1, 2, 3].map(() => pools.acquire('default')));
    const order: number[] = [];
    const waiters = [0, 1, 2, 3, 4].map((n) =>
      pools.acquire('default', { timeoutMs: 10_000 }).then(async (lease) => {
        order.push(n);
        await lease.release();
      }),
    );
    assert.equal(pools.detailedStats().default!.waiting, 5);
    // One window at a time: each waiter runs and hands it on to the next in line.
    await holders[0]!.release();
    await Promise.all(waiters);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    await Promise.all(holders.slice(1).map((l) => l.release()));
  });

  it('an aborted waiter leaves the queue and the next waiter is served', async () => {
    const holder = await pools.acquire('solo');
    const controller = new AbortController();
    const aborted = pools.acquire('solo', { signal: controller.signal, timeoutMs: 10_000 });
    const next = pools.acquire('solo', { timeoutMs: 10_000 });
    assert.equal(pools.detailedStats().solo!.waiting, 2);
    controller.abort(new Error('client went away'));
    await assert.rejects(aborted, { code: 'ERR_POOL_ACQUIRE_ABORTED' });
    assert.equal(pools.detailedStats().solo!.waiting, 1);
    await holder.release();
    const lease = await next;
    assert.equal(lease.window.id, 'solo-1');
    await lease.release();
    const pre = new AbortController();
    pre.abort();
    await assert.rejects(pools.acquire('solo', { signal: pre.signal }), {
      code: 'ERR_POOL_ACQUIRE_ABORTED',
    });
  });

  it('release is idempotent', async () => {
    const lease = await pools.acquire('solo');
    const first = lease.release();
    assert.equal(lease.released, true);
    assert.equal(lease.release(), first);
    await first;
    await lease.release();
    assert.deepEqual(pools.stats().solo, { size: 1, free: 1, busy: 0 });
    // The released lease cannot free a window someone else now holds.
    const other = await pools.acquire('solo');
    await lease.release();
    assert.deepEqual(pools.stats().solo, { size: 1, free: 0, busy: 1 });
    await other.release();
  });

  it('stress: 200 leases over 20 concurrent callers on size 3 — never two holders, all served', async () => {
    const holders = new Map<string, number>();
    let maxBusy = 0;
    let served = 0;
    const ids = new Set<string>();
    const caller = async (): Promise<void> => {
      for (let i = 0; i < 10; i++) {
        const lease = await pools.acquire('default', { timeoutMs: 20_000 });
        const id = lease.window.id;
        ids.add(id);
        holders.set(id, (holders.get(id) ?? 0) + 1);
        assert.equal(holders.get(id), 1, `window ${id} leased twice at once`);
        maxBusy = Math.max(maxBusy, [...holders.values()].filter((n) => n > 0).length);
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 3)));
        if (Math.random() < 0.2) await lease.window.page.evaluate('1 + 1');
        holders.set(id, holders.get(id)! - 1);
        served++;
        // Some callers release twice, or do not await the release.
        if (Math.random() < 0.3) void lease.release();
        else await lease.release();
        if (Math.random() < 0.1) await lease.release();
      }
    };
    await Promise.all(Array.from({ length: 20 }, caller));
    assert.equal(served, 200);
    assert.ok(maxBusy <= 3);
    assert.deepEqual(ids, new Set(['default-1', 'default-2', 'default-3']));
    await until(() => pools.stats().default!.free === 3, 5_000, 'all windows free');
    assert.deepEqual(pools.stats().default, { size: 3, free: 3, busy: 0 });
    // A renderer GC after every 10th lease of a window (gcEveryLeases default), interleaved
    // with the leasing above: about 200 / 10, less what each window's remainder leaves.
    assert.ok(pools.detailedStats().default!.collectedTotal >= 15);
  });

  it('keeps cookies and storage on a window between leases, isolated from other windows', async () => {
    const leases = await Promise.all([1, 2, 3].map(() => pools.acquire('default')));
    for (const lease of leases) {
      await lease.window.page.goto(site.url);
      await lease.window.page.evaluate((id) => {
        localStorage.setItem('owner', id);
        document.cookie = `owner=${id}; path=/`;
      }, lease.window.id);
    }
    await Promise.all(leases.map((l) => l.release()));
    const again = await Promise.all([1, 2, 3].map(() => pools.acquire('default')));
    for (const lease of again) {
      await lease.window.page.goto(site.url);
      const seen = await lease.window.page.evaluate(() => [
        localStorage.getItem('owner'),
        document.cookie,
      ]);
      assert.deepEqual(seen, [lease.window.id, `owner=${lease.window.id}`]);
    }
    await Promise.all(again.map((l) => l.release()));
  });

  it('accepts downloads and saves them in the window directory', async () => {
    const lease = await pools.acquire('solo');
    try {
      await lease.window.page.goto(site.url);
      const [download] = await Promise.all([
        lease.window.page.waitForEvent('download'),
        lease.window.page.click('#dl'),
      ]);
      const target = join(lease.window.downloadsDir, download.suggestedFilename());
      await download.saveAs(target);
      assert.equal(target, join(downloads, 'solo', 'solo-1', 'file.txt'));
      assert.equal(readFileSync(target, 'utf8'), 'downloaded bytes');
    } finally {
      await lease.release();
    }
  });

  it('reset recovers a hung page without leaking the window', async () => {
    const lease = await pools.acquire('solo');
    await lease.window.page.goto(site.url);
    void lease.window.page.evaluate('for(;;){}').catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
    const oldPage = lease.window.page;
    await pools.resetWindow(lease);
    assert.equal(oldPage.isClosed(), true);
    assert.deepEqual(pools.stats().solo, { size: 1, free: 1, busy: 0 });
    const next = await pools.acquire('solo');
    assert.equal(next.window.id, 'solo-1');
    assert.ok(next.window.generation > lease.window.generation);
    assert.equal(await next.window.page.evaluate('6 * 7'), 42);
    await next.release();
  });

  it('flags a lease held past maxHoldMs and reclaims one dropped without release', async () => {
    const held = await pools.acquire('solo', { maxHoldMs: 50 });
    await until(() => pools.detailedStats().solo!.overdue === 1, 2_000, 'overdue lease');
    await held.release();
    assert.equal(pools.detailedStats().solo!.overdue, 0);

    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await (async () => {
      let lost: Lease | undefined = await pools.acquire('solo');
      assert.equal(lost.window.id, 'solo-1');
      lost = undefined;
    })();
    assert.equal(pools.stats().solo!.busy, 1);
    await until(
      () => {
        gc();
        return pools.detailedStats().solo!.leakedTotal === 1;
      },
      5_000,
      'leaked lease reclaimed',
    );
    await until(() => pools.stats().solo!.free === 1, 5_000, 'window free again');
    const lease = await pools.acquire('solo');
    await lease.release();
  });

  it('emits leased, released, waiting, replaced, timeout and collected events', () => {
    for (const name of ['leased', 'released', 'waiting', 'replaced', 'timeout', 'collected']) {
      assert.ok(events.includes(name), `${name} emitted`);
    }
  });

  it('rejects unknown pools', async () => {
    await assert.rejects(pools.acquire('nope'), { code: 'ERR_POOL_UNKNOWN_TAG' });
  });
});
