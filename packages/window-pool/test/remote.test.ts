import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserServer } from 'playwright';
import { WindowPools } from '../src/index.js';
import { CHROMIUM, TEST_ARGS, until } from './helpers/env.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const launchServer = (port: number): Promise<BrowserServer> =>
  chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: TEST_ARGS,
    host: '127.0.0.1',
    port,
    wsPath: '/pool',
  });

describe('remote browsers (loopback)', () => {
  let root: string;
  let server: BrowserServer | undefined;
  let pools: WindowPools | undefined;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'wp-remote-'));
  });

  after(async () => {
    await pools?.close();
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('a pool on a Playwright browser server: windows dead while it is down, reconnected after', async () => {
    const port = await freePort();
    server = await launchServer(port);
    const endpoint = `ws://127.0.0.1:${port}/pool`;
    pools = new WindowPools({
      pools: { default: { size: 2, endpoint } },
      headless: true,
      downloadsDir: join(root, 'downloads'),
      acquireTimeoutMs: 300,
      reconnectBackoff: { initialMs: 50, maxMs: 200 },
    });
    const events: string[] = [];
    pools.on('disconnected', () => events.push('disconnected'));
    pools.on('reconnected', () => events.push('reconnected'));
    await pools.start();
    assert.deepEqual(pools.browserProcessIds(), [], 'nothing launched locally');
    const lease = await pools.acquire('default');
    assert.equal(await lease.window.page.evaluate('navigator.userAgent.includes("Chrome")'), true);
    await lease.release();

    await server.close();
    server = undefined;
    await until(() => events.includes('disconnected'), 5_000, 'disconnect noticed');
    assert.deepEqual(pools.stats().default, { size: 2, free: 0, busy: 0 });
    await assert.rejects(pools.acquire('default'), { message: 'acquire timeout: default' });

    server = await launchServer(port);
    await until(
      () => pools!.stats().default!.free === 2,
      15_000,
      'windows replaced after reconnect',
    );
    assert.ok(events.includes('reconnected'));
    const again = await pools.acquire('default', { timeoutMs: 5_000 });
    assert.equal(await again.window.page.evaluate('1 + 1'), 2);
    await again.release();
    await pools.close();
    pools = undefined;
    // The remote browser is not ours: it survives our close, without our contexts.
    const check = await chromium.connect(`ws://127.0.0.1:${port}/pool`);
    assert.equal(check.isConnected(), true);
    await check.close();
  });

  it('attaches to a running browser over CDP (SERVICE_CDP_URL) and leaves it running', async () => {
    const port = await freePort();
    const external = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...TEST_ARGS, `--remote-debugging-port=${port}`],
    });
    try {
      pools = new WindowPools({
        pools: { default: { size: 2 } },
        cdpUrl: `http://127.0.0.1:${port}`,
        downloadsDir: join(root, 'downloads'),
      });
      await pools.start();
      assert.deepEqual(pools.stats().default, { size: 2, free: 2, busy: 0 });
      const [a, b] = await Promise.all([pools.acquire('default'), pools.acquire('default')]);
      await a.window.page.setContent('<p>a</p>');
      assert.equal(await b.window.page.content().then((c) => c.includes('<p>a</p>')), false);
      await Promise.all([a.release(), b.release()]);
      await pools.close();
      pools = undefined;
      assert.equal(external.isConnected(), true);
      const page = await external.newPage();
      assert.equal(await page.evaluate('2 + 3'), 5);
    } finally {
      await external.close();
    }
  });
});
