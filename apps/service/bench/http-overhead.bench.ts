// HTTP overhead: the same sync task over HTTP vs the runner called in-process (median
// ms and ratio), then requests/s of a trivial task with pool sizes 1, 2 and 4.
// Bounded: ~30 runs per measurement and 4 s per throughput point.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServiceLogger, readServiceConfig, startService } from '../src/index.js';

const site = fileURLToPath(new URL('../../../examples/demo-site/public', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const THROUGHPUT_MS = Number(process.env.BENCH_THROUGHPUT_MS ?? 4000);

function makeBundle(poolSize: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'browsertask-http-bench-'));
  mkdirSync(join(dir, 'tasks'), { recursive: true });
  writeFileSync(join(dir, 'pool.yaml'), `pools:\n  default: { size: ${poolSize} }\n`);
  writeFileSync(
    join(dir, 'static-mounts.yaml'),
    `mounts:\n  - { prefix: /demo, dir: ${JSON.stringify(site)}, serve: true }\n`,
  );
  writeFileSync(
    join(dir, 'tasks', 'extract.task'),
    'task "extract"\n  goto "{{SERVICE_BASE_URL}}/demo/quotes/page-1.html"\n  wait until ".quote" timeout 5000\n  extract quotes from ".quote" repeat\n    text text ".text"\n    author text ".author"\n  end\nend\n',
  );
  writeFileSync(
    join(dir, 'tasks', 'trivial.task'),
    'task "trivial"\n  js n script "return 1 + 1;"\nend\n',
  );
  return dir;
}

async function start(poolSize: number) {
  const bundle = makeBundle(poolSize);
  const { config } = readServiceConfig(
    {
      SERVICE_BUNDLE: bundle,
      SERVICE_PORT: '0',
      SERVICE_HEADLESS: 'true',
      SERVICE_DOWNLOADS_DIR: join(bundle, 'downloads'),
      ...(process.env.SERVICE_BROWSER ? { SERVICE_BROWSER: process.env.SERVICE_BROWSER } : {}),
    },
    { cwd: process.cwd(), homeDir: homedir() },
  );
  const { logger, setRedact } = createServiceLogger({ level: 'silent' });
  const service = await startService({
    config,
    env: process.env,
    secretArgs: {},
    isTTY: false,
    logger,
    setRedact,
  });
  const stop = async (): Promise<void> => {
    await service.close();
    rmSync(bundle, { recursive: true, force: true });
  };
  return { service, stop };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function postTask(url: string, slug: string): Promise<void> {
  const res = await fetch(`${url}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json()) as { ok: boolean };
  if (!body.ok) throw new Error(`${slug} failed over HTTP`);
}

const results: Record<string, unknown> = {};
{
  const started = await start(1);
  const { service } = started;
  try {
    for (let i = 0; i < 3; i++) await postTask(service.url, 'extract'); // warm-up
    const inProcess: number[] = [];
    const overHttp: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      const out = await service.runner.run('extract', {});
      if (!out.ok) throw new Error(out.error.message);
      inProcess.push(performance.now() - t);
      t = performance.now();
      await postTask(service.url, 'extract');
      overHttp.push(performance.now() - t);
    }
    results.extractInProcessMedianMs = +median(inProcess).toFixed(1);
    results.extractHttpMedianMs = +median(overHttp).toFixed(1);
    results.httpOverInProcessRatio = +(median(overHttp) / median(inProcess)).toFixed(3);
  } finally {
    await started.stop();
  }
}
for (const size of [1, 2, 4]) {
  const started = await start(size);
  const { service } = started;
  try {
    let done = 0;
    const until = performance.now() + THROUGHPUT_MS;
    const worker = async (): Promise<void> => {
      while (performance.now() < until) {
        await postTask(service.url, 'trivial');
        done++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: size * 2 }, worker));
    results[`trivialRequestsPerSecPool${size}`] = +(
      (done * 1000) /
      (performance.now() - t0)
    ).toFixed(1);
  } finally {
    await started.stop();
  }
}
console.log(JSON.stringify({ bench: 'service/http-overhead', runs: RUNS, ...results }, null, 2));
