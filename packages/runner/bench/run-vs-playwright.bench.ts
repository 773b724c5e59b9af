// goto + wait until + extract 20 records: through the Runner (registry, inputs, templating,
// coercion, deadline races, lease) versus the same Playwright calls written by hand, in one
// process, on the same page, alternating. Prints medians and their ratio (goal ≤ 1.05).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openBundle } from '@browsertask/bundle-fs';
import { Runner, createTaskRegistry, type WindowSource } from '../src/index.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { startSite } from '../test/helpers/site.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WARMUP = 5;
const RECIPE = `task "bench/list"
  input base string required
  goto "{{base}}/"
  wait until ".item" timeout 5000
  extract items from ".item" repeat
    name text ".name"
    href attr href on "a"
    price text ".price" int
  end
end
`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const root = await mkdtemp(join(tmpdir(), 'runner-bench-'));
const browser = await launchBrowser();
const site = await startSite();
try {
  await mkdir(join(root, 'bundle', 'tasks'), { recursive: true });
  await writeFile(join(root, 'bundle', 'tasks', 'list.task'), RECIPE);
  const bundle = await openBundle(join(root, 'bundle'));
  const context = await browser.newContext();
  const page = await context.newPage();
  const window = { id: 'w1', poolTag: 'default', page, context, downloadsDir: join(root, 'dl') };
  const pools: WindowSource = {
    acquire: () => Promise.resolve({ window, release: () => Promise.resolve() }),
  };
  const runner = new Runner({
    registry: createTaskRegistry(bundle),
    pools,
    bundle,
    downloadsRoot: join(root, 'dl'),
    recordingsDir: join(root, 'rec'),
  });

  const viaRunner = async (): Promise<number> => {
    const t = performance.now();
    const out = await runner.run('bench/list', { base: site.url });
    if (!out.ok || (out.data as { items: unknown[] }).items.length !== 20)
      throw new Error(JSON.stringify(out));
    return performance.now() - t;
  };
  const byHand = async (): Promise<number> => {
    const t = performance.now();
    await page.goto(`${site.url}/`, { waitUntil: 'load', timeout: 60000 });
    await page.waitForSelector('.item', { state: 'attached', timeout: 5000 });
    const items = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.item')).map((row) => ({
        name: (row.querySelector('.name')?.textContent ?? '').trim(),
        href: row.querySelector('a')?.getAttribute('href') ?? null,
        price: Number.parseInt(
          (row.querySelector('.price')?.textContent ?? '').replace(/[^\d-]/g, ''),
          10,
        ),
      })),
    );
    if (items.length !== 20) throw new Error('extract failed');
    return performance.now() - t;
  };

  for (let i = 0; i < WARMUP; i += 1) {
    await viaRunner();
    await byHand();
  }
  const r: number[] = [];
  const h: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    // Alternate the order so drift on the shared machine hits both sides alike.
    if (i % 2 === 0) {
      r.push(await viaRunner());
      h.push(await byHand());
    } else {
      h.push(await byHand());
      r.push(await viaRunner());
    }
  }
  const mr = median(r);
  const mh = median(h);
  console.log(`rounds: ${ROUNDS} (after ${WARMUP} warm-up)`);
  console.log(`runner  median ${mr.toFixed(2)} ms`);
  console.log(`by hand median ${mh.toFixed(2)} ms`);
  console.log(`ratio runner/hand: ${(mr / mh).toFixed(3)} (goal <= 1.05)`);
  await bundle.close();
} finally {
  await browser.close();
  await site.close();
  await rm(root, { recursive: true, force: true });
}
