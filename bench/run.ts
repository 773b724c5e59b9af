/**
 * Service-level benchmarks (issue #7): every scenario side by side in one process tree,
 * against pages on 127.0.0.1. Writes bench/results/latest.json, SVG charts and a markdown
 * summary (bench/results/summary.md) that docs/benchmarks.md quotes.
 *
 *   pnpm bench service            # all scenarios (about 10 minutes on 2 cores)
 *   BENCH_SCENARIOS=overhead,sse pnpm bench service
 *   BENCH_QUICK=1 pnpm bench service   # smaller counts, for a smoke run
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { startDemoServer, type DemoServer } from './lib/demo-server.ts';
import { makeBundleDir, zipBundle } from './lib/bundles.ts';
import { runTask, startService, type RunningService } from './lib/service.ts';
import { treeCpuSeconds, treePssMb, treeRssMb } from './lib/procs.ts';
import { ratio, summarize, timed, type Summary } from './lib/stats.ts';
import { barChart } from './lib/svg.ts';

const quick = process.env.BENCH_QUICK === '1';
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
const only = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);
const wanted = (name: string) => only.length === 0 || only.includes(name);
const n = (full: number, small: number) => (quick ? small : full);

/** Same flags the window pool uses (platform-notes.md), for a fair hand-written baseline. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
];
const executablePath = process.env.SERVICE_BROWSER ?? '/usr/bin/chromium';

async function handWrittenRun(page: Page, url: string): Promise<unknown> {
  await page.goto(url);
  await page.waitForSelector('.item', { timeout: 5000 });
  return page.$$eval('.item', (rows) =>
    rows.map((row) => ({
      title: row.querySelector('a')?.textContent?.trim() ?? '',
      href: row.querySelector('a')?.getAttribute('href') ?? '',
      price: row.querySelector('.price')?.textContent?.trim() ?? '',
    })),
  );
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memGiB: Math.round(totalmem() / 2 ** 30),
  },
  quick,
};
const charts: Record<string, string> = {};
const summary: string[] = [];

async function withService<T>(
  bundle: string,
  fn: (svc: RunningService) => Promise<T>,
  env?: Record<string, string>,
): Promise<T> {
  const svc = await startService(bundle, env);
  try {
    return await fn(svc);
  } finally {
    await svc.stop();
  }
}

async function overhead(demo: DemoServer, browser: Browser): Promise<void> {
  const bundle = makeBundleDir({ poolSize: 2 });
  const count = n(200, 30);
  const out: Record<string, Record<string, Summary>> = {};
  await withService(bundle, async (svc) => {
    const warmPages = [await browser.newPage(), await browser.newPage()];
    const variants: Record<string, (worker: number) => Promise<void>> = {
      'service (POST /tasks)': async () => {
        await runTask(svc.baseUrl, 'bench/extract', { url: demo.url });
      },
      // One warm page per worker: a page is never driven by two runs at once.
      'hand-written, warm page': async (worker) => {
        await handWrittenRun(warmPages[worker]!, demo.url);
      },
      'new context per run': async () => {
        const context = await browser.newContext();
        try {
          await handWrittenRun(await context.newPage(), demo.url);
        } finally {
          await context.close();
        }
      },
    };
    for (const concurrency of [1, 2]) {
      const durations: Record<string, number[]> = Object.fromEntries(
        Object.keys(variants).map((k) => [k, []]),
      );
      // Warm-up, then interleave blocks of 10 so machine noise hits every variant alike.
      for (const fn of Object.values(variants)) await timed(10, concurrency, (_i, w) => fn(w));
      for (let done = 0; done < count; done += 10) {
        for (const [name, fn] of Object.entries(variants)) {
          const { durations: d } = await timed(10, concurrency, (_i, w) => fn(w));
          durations[name]!.push(...d);
        }
      }
      out[`concurrency ${concurrency}`] = Object.fromEntries(
        Object.entries(durations).map(([k, v]) => [k, summarize(v)]),
      );
    }
    for (const p of warmPages) await p.close();
  });
  results.overhead = out;
  const rows: string[] = [];
  const groups = [];
  for (const [conc, variants] of Object.entries(out)) {
    const service = variants['service (POST /tasks)']!;
    const hand = variants['hand-written, warm page']!;
    const fresh = variants['new context per run']!;
    const medianRatio = ratio(service.medianMs, hand.medianMs);
    rows.push(
      `| ${conc} | ${service.medianMs} / ${service.p95Ms} | ${hand.medianMs} / ${hand.p95Ms} | ${fresh.medianMs} / ${fresh.p95Ms} | ${medianRatio}× / ${ratio(service.p95Ms, hand.p95Ms)}× | ${ratio(fresh.medianMs, service.medianMs)}× | ${medianRatio <= 1.1 ? 'met' : 'not met'} |`,
    );
    groups.push({
      label: `${conc} (median)`,
      values: [service.medianMs, hand.medianMs, fresh.medianMs],
    });
    groups.push({ label: `${conc} (p95)`, values: [service.p95Ms, hand.p95Ms, fresh.p95Ms] });
  }
  charts['overhead.svg'] = barChart({
    title: 'goto + wait until + extract 20 records: latency per run',
    unit: 'ms',
    series: ['service (POST /tasks)', 'hand-written, warm page', 'new context per run'],
    groups,
  });
  summary.push(
    '## 1. Overhead (goto + wait until + extract 20 records)',
    '',
    `${count} runs per variant and concurrency, interleaved in blocks of 10, after 10 warm-up runs.`,
    '',
    '| concurrency | service median / p95 ms | hand-written warm page | new context per run | service ÷ hand-written (median / p95) | new-context ÷ service | goal ≤ 1.10× |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '![overhead](../bench/results/overhead.svg)',
    '',
  );
}

async function scaling(demo: DemoServer): Promise<void> {
  const out: Record<
    string,
    { concurrency: number; runsPerSec: number; latency: Summary; coresUsed: number }[]
  > = {};
  const rows: string[] = [];
  const sizes = quick ? [1, 2] : [1, 2, 4, 8];
  for (const size of sizes) {
    const bundle = makeBundleDir({ poolSize: size });
    out[size] = await withService(bundle, async (svc) => {
      const points = [];
      await timed(size * 4, size, () =>
        runTask(svc.baseUrl, 'bench/extract', { url: demo.url }).then(() => undefined),
      );
      for (const concurrency of [size, size * 4]) {
        const count = n(Math.max(80, concurrency * 12), 16);
        const cpuBefore = treeCpuSeconds(svc.pid);
        const { durations, wallMs } = await timed(count, concurrency, () =>
          runTask(svc.baseUrl, 'bench/extract', { url: demo.url }).then(() => undefined),
        );
        // Cores the service + Chromium tree kept busy (CPU seconds per wall second).
        const cpuSeconds = treeCpuSeconds(svc.pid) - cpuBefore;
        const coresUsed = Math.round((cpuSeconds / (wallMs / 1000)) * 100) / 100;
        const runsPerSec = Math.round((count / (wallMs / 1000)) * 100) / 100;
        const latency = summarize(durations);
        points.push({ concurrency, runsPerSec, latency, coresUsed });
        rows.push(
          `| ${size} | ${concurrency} | ${runsPerSec} | ${latency.medianMs} | ${latency.p95Ms} | ${coresUsed} |`,
        );
      }
      return points;
    });
  }
  results.scaling = out;
  const base = out[1]?.[0]?.runsPerSec ?? 1;
  const two = out[2]?.[0]?.runsPerSec ?? 0;
  charts['scaling.svg'] = barChart({
    title: 'Throughput by pool size (goto + wait until + extract 20)',
    unit: 'runs/s',
    series: ['concurrency = pool size', 'concurrency = 4 × pool size'],
    groups: Object.entries(out).map(([size, points]) => ({
      label: `pool ${size}`,
      values: points.map((p) => p.runsPerSec),
    })),
  });
  summary.push(
    '## 2. Scaling',
    '',
    '| pool size | concurrency | runs/s | p50 ms | p95 ms | cores used (service + Chromium) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Pool 1 → 2 at concurrency = size: ${ratio(two, base)}× (goal: linear up to the core count, i.e. ≈ 2× on 2 cores).`,
    '',
    '![scaling](../bench/results/scaling.svg)',
    '',
  );
}

async function memory(demo: DemoServer): Promise<void> {
  const idle: Record<string, { rssMb: number; pssMb: number }> = {};
  for (const size of [1, 4, 8]) {
    const bundle = makeBundleDir({ poolSize: size });
    idle[size] = await withService(bundle, async (svc) => {
      await runTask(svc.baseUrl, 'bench/extract', { url: demo.url });
      await new Promise((r) => setTimeout(r, 2000));
      return { rssMb: treeRssMb(svc.pid), pssMb: treePssMb(svc.pid) };
    });
  }
  const runs = n(1000, 60);
  const growth = await withService(makeBundleDir({ poolSize: 2 }), async (svc) => {
    const run = () =>
      runTask(svc.baseUrl, 'bench/extract', { url: demo.url }).then(() => undefined);
    // Warm-up past the first page recycling of both windows (every 100 leases each).
    await timed(n(300, 20), 2, run);
    const samples: { runs: number; pssMb: number }[] = [];
    const step = runs / 10;
    for (let done = 0; done <= runs; done += step) {
      if (done > 0) await timed(step, 2, run);
      samples.push({ runs: done, pssMb: treePssMb(svc.pid) });
    }
    // Least-squares slope over the samples: robust to where the last GC or recycling fell.
    const mx = samples.reduce((a, p) => a + p.runs, 0) / samples.length;
    const my = samples.reduce((a, p) => a + p.pssMb, 0) / samples.length;
    const slope =
      samples.reduce((a, p) => a + (p.runs - mx) * (p.pssMb - my), 0) /
      samples.reduce((a, p) => a + (p.runs - mx) ** 2, 0);
    const before = { pssMb: samples[0]!.pssMb };
    const after = { rssMb: treeRssMb(svc.pid), pssMb: samples.at(-1)!.pssMb };
    const perThousand = Math.round(slope * 1000 * 10) / 10;
    return { runs, before, after, samples, pssGrowthMbPer1000Runs: perThousand };
  });
  results.memory = { idle, growth };
  const perWindow = Math.round((((idle[8]?.pssMb ?? 0) - (idle[1]?.pssMb ?? 0)) / 7) * 10) / 10;
  charts['memory.svg'] = barChart({
    title: 'Service + Chromium process tree at idle',
    unit: 'MB',
    series: ['PSS', 'RSS (sum, counts shared pages repeatedly)'],
    groups: Object.entries(idle).map(([size, m]) => ({
      label: `${size} window(s)`,
      values: [m.pssMb, m.rssMb],
    })),
  });
  summary.push(
    '## 3. Memory',
    '',
    '| windows | PSS MB | RSS MB (sum) |',
    '|---|---|---|',
    ...Object.entries(idle).map(([size, m]) => `| ${size} | ${m.pssMb} | ${m.rssMb} |`),
    '',
    `Each extra window costs about ${perWindow} MB PSS. Over ${growth.runs} runs after a warm-up (pool 2, concurrency 2), PSS sampled every ${growth.runs / 10} runs: ` +
      `${growth.samples.map((p) => p.pssMb).join(' → ')} MB; least-squares slope ${growth.pssGrowthMbPer1000Runs} MB per 1,000 runs (goal < 1 MB: ${growth.pssGrowthMbPer1000Runs < 1 ? 'met' : 'not met'}).`,
    '',
    '![memory](../bench/results/memory.svg)',
    '',
  );
}

async function coldStart(demo: DemoServer): Promise<void> {
  const samples: { readyMs: number; firstRunMs: number }[] = [];
  for (let i = 0; i < n(3, 1); i++) {
    const bundle = makeBundleDir({ poolSize: 1 });
    const t0 = performance.now();
    await withService(bundle, async (svc) => {
      await runTask(svc.baseUrl, 'bench/extract', { url: demo.url });
      samples.push({
        readyMs: Math.round(svc.readyMs),
        firstRunMs: Math.round(performance.now() - t0),
      });
    });
  }
  results.coldStart = samples;
  const median = summarize(samples.map((s) => s.firstRunMs)).medianMs;
  summary.push(
    '## 4. Cold start',
    '',
    `Process spawn → first successful run: median ${median} ms over ${samples.length} starts ` +
      `(ready, i.e. /health answering, at ${samples.map((s) => s.readyMs).join(' / ')} ms).`,
    '',
  );
}

async function hotReload(): Promise<void> {
  const rows: string[] = [];
  const out: Record<string, Record<string, Summary>> = {};
  const groups = [];
  const requests = n(200, 30);
  for (const tasks of [10, 100, 1000]) {
    const dir = makeBundleDir({ poolSize: 1, extraTasks: tasks });
    const zip = zipBundle(dir);
    const perKind: Record<string, Summary> = {};
    for (const [kind, bundle] of [
      ['directory', dir],
      ['zip', zip],
    ] as const) {
      perKind[kind] = await withService(bundle, async (svc) => {
        await fetch(`${svc.baseUrl}/tasks`).then((r) => r.arrayBuffer());
        const { durations } = await timed(requests, 1, async () => {
          await fetch(`${svc.baseUrl}/health`).then((r) => r.arrayBuffer());
        });
        return summarize(durations);
      });
    }
    // Cost of the request right after a change (directory: one recipe rewritten).
    const changed = await withService(dir, async (svc) => {
      const d: number[] = [];
      const file = join(dir, 'tasks', 'filler', 't0.task');
      for (let i = 0; i < n(20, 5); i++) {
        const when = new Date(Date.now() + (i + 1) * 1000);
        utimesSync(file, when, when);
        const t0 = performance.now();
        await fetch(`${svc.baseUrl}/health`).then((r) => r.arrayBuffer());
        d.push(performance.now() - t0);
      }
      return summarize(d);
    });
    out[tasks] = { ...perKind, 'directory, after a change': changed };
    rows.push(
      `| ${tasks} | ${perKind.directory!.medianMs} | ${perKind.zip!.medianMs} | ${changed.medianMs} |`,
    );
    groups.push({
      label: `${tasks} tasks`,
      values: [perKind.directory!.medianMs, perKind.zip!.medianMs, changed.medianMs],
    });
  }
  results.hotReload = out;
  charts['hot-reload.svg'] = barChart({
    title: 'GET /health (live task count) latency by bundle size',
    unit: 'ms (median)',
    series: ['directory, unchanged', 'zip, unchanged', 'directory, one file changed'],
    groups,
  });
  summary.push(
    '## 5. Hot reload',
    '',
    '`GET /health` re-counts the registry on every request, so its latency is the per-request registry cost plus one HTTP round trip.',
    '',
    '| tasks | directory, unchanged (median ms) | zip, unchanged | directory, right after a recipe changed |',
    '|---|---|---|---|',
    ...rows,
    '',
    '![hot reload](../bench/results/hot-reload.svg)',
    '',
  );
}

/** Minimal SSE reader: yields {event, data} as they arrive. */
async function* readSse(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

async function sse(): Promise<void> {
  const bundle = makeBundleDir({ poolSize: 1 });
  const latencies = await withService(bundle, async (svc) => {
    const d: number[] = [];
    for (let i = 0; i < n(60, 10); i++) {
      const res = await fetch(`${svc.baseUrl}/tasks/bench/sse`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
        body: '{}',
      });
      for await (const ev of readSse(res.body!)) {
        if (ev.event === 'progress') {
          const payload = JSON.parse(ev.data) as { data?: { t?: number | string } };
          d.push(Date.now() - Number(payload.data?.t));
        }
        if (ev.event === 'done' || ev.event === 'error') break;
      }
    }
    return d;
  });
  const s = summarize(latencies.slice(3));
  results.sse = s;
  summary.push(
    '## 6. SSE',
    '',
    `From the end of a \`js\` step (page clock) through an \`emit\` step to the event parsed by the client: median ${s.medianMs} ms, p95 ${s.p95Ms} ms (${s.n} runs).`,
    '',
  );
}

const demo = await startDemoServer();
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
try {
  if (wanted('overhead')) await overhead(demo, browser);
  if (wanted('scaling')) await scaling(demo);
  if (wanted('memory')) await memory(demo);
  if (wanted('cold-start')) await coldStart(demo);
  if (wanted('hot-reload')) await hotReload();
  if (wanted('sse')) await sse();
} finally {
  await browser.close();
  await demo.close();
}

mkdirSync(resultsDir, { recursive: true });
// A subset run (BENCH_SCENARIOS) writes beside the full results instead of over them.
const suffix = only.length > 0 ? `-${only.join('+')}` : '';
writeFileSync(
  join(resultsDir, quick ? 'quick.json' : `latest${suffix}.json`),
  `${JSON.stringify(results, null, 2)}\n`,
);
if (!quick) {
  for (const [name, svg] of Object.entries(charts)) writeFileSync(join(resultsDir, name), svg);
  writeFileSync(join(resultsDir, `summary${suffix}.md`), `${summary.join('\n')}\n`);
}
console.log(summary.join('\n'));
