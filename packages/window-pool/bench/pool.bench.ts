// Benchmarks of @browsertask/window-pool on real Chromium (bounded: about a minute).
// Run: pnpm --filter @browsertask/window-pool bench. Prints medians as JSON lines.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WindowPools } from '../src/index.js';

const CHROMIUM = process.env.SERVICE_BROWSER ?? '/usr/bin/chromium';
const root = await mkdtemp(join(tmpdir(), 'wp-bench-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const report = (name: string, value: number, unit: string, extra: object = {}): void => {
  console.log(
    JSON.stringify({
      bench: `window-pool/${name}`,
      median: Number(value.toFixed(2)),
      unit,
      ...extra,
    }),
  );
};

function tree(rootPid: number): number[] {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const t = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(t.slice(t.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // exited
    }
  }
  const out = [rootPid];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]!) ?? []));
  return out;
}

/** Sum of RSS and PSS (MB) over the Chromium process tree. */
function memory(pools: WindowPools): { rssMb: number; pssMb: number } {
  let rss = 0;
  let pss = 0;
  for (const pid of pools.browserProcessIds().flatMap(tree)) {
    try {
      const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return { rssMb: rss / 1024, pssMb: pss / 1024 };
}

const make = (size: number): WindowPools =>
  new WindowPools({
    pools: { default: { size } },
    executablePath: CHROMIUM,
    headless: true,
    downloadsDir: join(root, 'downloads'),
    reconnectBackoff: { initialMs: 50, maxMs: 500 },
  });

try {
  // 1. Lease + release overhead (no browser call in between).
  {
    const pools = make(1);
    await pools.start();
    const batches: number[] = [];
    for (let b = 0; b < 7; b++) {
      const n = 2_000;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        const lease = await pools.acquire('default');
        await lease.release();
      }
      batches.push(Number(process.hrtime.bigint() - t0) / 1e3 / n);
    }
    report('lease+release', median(batches), 'µs', { batches: 7, perBatch: 2000 });

    // 2. Recovery after a renderer crash: crash, release, until the next lease answers.
    const crash: number[] = [];
    for (let i = 0; i < 5; i++) {
      const lease = await pools.acquire('default');
      await lease.window.page.goto('chrome://crash').catch(() => {});
      const t0 = performance.now();
      // As the runner does: the failing call is classified, then the lease released.
      await lease.window.page.evaluate('1').catch((err: unknown) => lease.toSessionError(err));
      await lease.release();
      const next = await pools.acquire('default');
      await next.window.page.evaluate('1');
      crash.push(performance.now() - t0);
      await next.release();
    }
    report('recovery-after-tab-crash', median(crash), 'ms', { runs: 5 });

    // 3. Recovery after kill -9 of the browser: relaunch + window replaced.
    const kill: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [pid] = pools.browserProcessIds();
      const t0 = performance.now();
      process.kill(pid!, 'SIGKILL');
      // Until the pool has noticed (Playwright's disconnect event, ~50 ms).
      while (pools.stats().default!.free !== 0) await new Promise((r) => setTimeout(r, 5));
      const next = await pools.acquire('default');
      await next.window.page.evaluate('1');
      kill.push(performance.now() - t0);
      await next.release();
    }
    report('recovery-after-browser-kill', median(kill), 'ms', { runs: 3, size: 1 });
    await pools.close();
  }

  // 4. Start-up time and memory per window.
  const mem: Record<number, { rssMb: number; pssMb: number }> = {};
  for (const size of [1, 4, 8]) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const pools = make(size);
      const t0 = performance.now();
      await pools.start();
      times.push(performance.now() - t0);
      if (i === 2) {
        await new Promise((r) => setTimeout(r, 500));
        mem[size] = memory(pools);
      }
      await pools.close();
    }
    report(`start-size-${size}`, median(times), 'ms', { runs: 3 });
  }
  const perWindowRss = (mem[8]!.rssMb - mem[1]!.rssMb) / 7;
  const perWindowPss = (mem[8]!.pssMb - mem[1]!.pssMb) / 7;
  report('rss-per-extra-window', perWindowRss, 'MB', {
    pssPerExtraWindowMb: Number(perWindowPss.toFixed(1)),
    size1: mem[1],
    size8: mem[8],
    page: 'about:blank',
  });
} finally {
  rmSync(root, { recursive: true, force: true });
}
