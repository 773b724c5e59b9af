/**
 * Bounded loopback load (issue #7): many runs at concurrency 32 on a pool of 4. Every
 * answer is a success or the documented `acquire timeout`, /health is consistent
 * afterwards and no process leaks. Short form in CI; 5,000 runs with RELIABILITY_FULL=1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import {
  FULL,
  health,
  removeDir,
  serve,
  stopAndCountLeaks,
  writeBundle,
} from './helpers/harness.ts';

const RUNS = FULL ? 5000 : 400;
const CONCURRENCY = 32;

function postRaw(
  agent: Agent,
  port: number,
  path: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end('{"n":"7"}');
  });
}

test(
  `load: ${RUNS} runs at concurrency ${CONCURRENCY} on a pool of 4`,
  { timeout: 20 * 60_000 },
  async () => {
    const bundle = writeBundle({
      'pool.yaml': 'pools:\n  default: { size: 4 }\n',
      'tasks/add.task':
        'task "add"\n  input n int default 1\n  js sum script "return arguments[0] + 1;" args ["{{n}}"]\nend\n',
    });
    const svc = await serve(bundle);
    const port = Number(new URL(svc.baseUrl).port);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const outcomes = new Map<string, number>();
    let next = 0;
    const started = Date.now();
    try {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < RUNS) {
            next++;
            const { status, body } = await postRaw(agent, port, '/tasks/add');
            const env = JSON.parse(body) as {
              ok: boolean;
              data?: { sum?: number };
              error?: { message: string };
            };
            let key: string;
            if (status === 200 && env.ok && env.data?.sum === 8) key = 'ok';
            else if (status === 500 && env.error?.message === 'acquire timeout: default')
              key = 'acquire timeout';
            else key = `unexpected ${status} ${body.slice(0, 200)}`;
            outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
            if (next % 50 === 0) svc.sample();
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      const unexpected = [...outcomes.keys()].filter((k) => k !== 'ok' && k !== 'acquire timeout');
      assert.deepEqual(
        unexpected,
        [],
        `only successes or acquire timeouts (${JSON.stringify([...outcomes])})`,
      );
      assert.equal(
        [...outcomes.values()].reduce((a, b) => a + b, 0),
        RUNS,
      );
      const h = await health(svc.baseUrl);
      assert.deepEqual(h.pools.default, { size: 4, free: 4, busy: 0 });
      console.log(
        `# load: ${RUNS} runs in ${seconds.toFixed(1)} s (${(RUNS / seconds).toFixed(1)} runs/s): ${JSON.stringify(Object.fromEntries(outcomes))}`,
      );
    } finally {
      agent.destroy();
      const leaks = await stopAndCountLeaks(svc);
      removeDir(bundle);
      assert.deepEqual(leaks, []);
    }
  },
);
