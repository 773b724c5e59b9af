// Requests/s over loopback for GET /health and POST of a trivial fake task (JSON mode).
// Bounded: ROUNDS rounds of DURATION_MS per scenario at CONCURRENCY in-flight requests;
// prints the median of the rounds. Run: pnpm --filter @browsertask/server bench
import { Pool } from 'undici';
import { createServer } from '../src/index.js';

const DURATION_MS = Number(process.env['BENCH_DURATION_MS'] ?? 3000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = 8;

const srv = createServer({
  catalogue: { list: () => [], count: () => 1 },
  runTask: (_name, input) => Promise.resolve({ echo: input }),
  health: () => ({ default: { size: 1, free: 1, busy: 0 } }),
});
const { url } = await srv.listen(0, '127.0.0.1');
const pool = new Pool(url, { connections: CONCURRENCY });

async function round(method: 'GET' | 'POST', path: string, body?: string): Promise<number> {
  let done = 0;
  let failed = 0;
  const deadline = performance.now() + DURATION_MS;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const res = await pool.request({
        method,
        path,
        body,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      });
      await res.body.text();
      if (res.statusCode === 200) done++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (failed > 0) throw new Error(`${failed} requests failed on ${method} ${path}`);
  return done / ((performance.now() - started) / 1000);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const scenarios: [string, 'GET' | 'POST', string, string | undefined][] = [
  ['GET /health', 'GET', '/health', undefined],
  ['POST /tasks/echo (JSON)', 'POST', '/tasks/echo', '{"q":"x"}'],
];
try {
  for (const [label, method, path, body] of scenarios) {
    await round(method, path, body); // warm-up (JIT, connections), not counted
    const rates: number[] = [];
    for (let i = 0; i < ROUNDS; i++) rates.push(await round(method, path, body));
    console.log(
      `${label}: median ${Math.round(median(rates))} req/s (rounds: ${rates.map((r) => Math.round(r)).join(', ')}; ${DURATION_MS} ms each, concurrency ${CONCURRENCY})`,
    );
  }
} finally {
  await pool.close();
  await srv.close({ graceMs: 0 });
}
