import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WindowPools } from '../src/index.js';
import { CHROMIUM, startSite, until } from './helpers/env.js';

// Window maintenance (renderer GC, page recycling) keeps long-lived windows from growing;
// the effect on memory is measured in docs/benchmarks.md, the behaviour is tested here.
describe('window maintenance (one window, real Chromium)', () => {
  let pools: WindowPools;
  let site: { url: string; server: Server };
  let downloads: string;
  const events: { name: string; ok: boolean }[] = [];

  before(async () => {
    site = await startSite();
    downloads = await mkdtemp(join(tmpdir(), 'wp-maint-'));
    pools = new WindowPools({
      pools: { default: { size: 1 } },
      executablePath: CHROMIUM,
      headless: true,
      downloadsDir: downloads,
      gcEveryLeases: 2,
      recyclePageEveryLeases: 3,
    });
    pools.on('collected', (e) => events.push({ name: 'collected', ok: e.ok }));
    pools.on('recycled', (e) => events.push({ name: 'recycled', ok: e.ok }));
    await pools.start();
  });

  after(async () => {
    await pools?.close();
    site?.server.close();
    if (downloads) rmSync(downloads, { recursive: true, force: true });
  });

  it('collects garbage and swaps the page on schedule; cookies and storage survive', async () => {
    const first = await pools.acquire('default');
    const firstPage = first.window.page;
    await firstPage.goto(site.url);
    await firstPage.evaluate(() => {
      localStorage.setItem('kept', 'yes');
      document.cookie = 'kept=yes; path=/; max-age=3600';
    });
    await first.release(); // lease 1
    for (let i = 2; i <= 3; i++) {
      const lease = await pools.acquire('default'); // waits for any maintenance in flight
      assert.equal(lease.window.page.isClosed(), false);
      await lease.release(); // lease 2: GC; lease 3: page recycled
    }
    const next = await pools.acquire('default');
    try {
      assert.notEqual(next.window.page, firstPage, 'a fresh page after 3 leases');
      assert.equal(firstPage.isClosed(), true, 'the old page is closed');
      assert.equal(next.window.id, 'default-1');
      await next.window.page.goto(site.url);
      const kept = await next.window.page.evaluate(() => ({
        storage: localStorage.getItem('kept'),
        cookie: document.cookie,
      }));
      assert.deepEqual(kept, { storage: 'yes', cookie: 'kept=yes' });
    } finally {
      await next.release();
    }
    assert.deepEqual(
      events.map((e) => `${e.name}:${e.ok}`),
      ['collected:true', 'recycled:true'],
    );
    const stats = pools.detailedStats().default!;
    assert.equal(stats.collectedTotal, 1);
    assert.equal(stats.recycledTotal, 1);
    assert.equal(stats.replacedTotal, 0, 'recycling is not a replacement');
    await until(() => pools.stats().default!.free === 1, 5_000, 'window free');
  });

  it('a crash of the recycled page is still detected and the window replaced', async () => {
    const lease = await pools.acquire('default');
    const page = lease.window.page;
    void page.goto('chrome://crash').catch(() => undefined);
    await until(() => lease.dead, 5_000, 'crash noticed');
    await lease.release();
    await until(() => pools.detailedStats().default!.replacedTotal === 1, 10_000, 'replaced');
    const again = await pools.acquire('default');
    assert.equal(await again.window.page.evaluate(() => 1 + 1), 2);
    await again.release();
  });
});
