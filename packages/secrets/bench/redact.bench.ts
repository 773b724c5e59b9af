// Benchmark of @browsertask/secrets: the cost redaction adds to logging and the cost of
// resolution. Bounded: fixed iteration counts, 7 rounds each, medians printed.
// Run: pnpm --filter @browsertask/secrets bench
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import {
  createRedactingDestination,
  createRedactor,
  pinoRedaction,
  resolveSecrets,
  validateSecretsConfig,
} from '../src/index.js';

const ROUNDS = 7;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(label: string, iterations: number, fn: () => unknown): Promise<void> {
  const perOp: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    perOp.push(((performance.now() - start) * 1000) / iterations);
  }
  console.log(`${label.padEnd(58)} median ${median(perOp).toFixed(2).padStart(8)} µs/op`);
}

const secrets = ['Tr0ub4dor&3-horse', 'sk_live_51HxYzAbCdEfGh', 'with "quotes" \\ here'];
const redactor = createRedactor(secrets);
const line =
  'step "login": sendkeys #password keys Tr0ub4dor&3-horse failed after 1200 ms on https://shop.test/login?next=/orders&token=sk_live_51HxYzAbCdEfGh';
const cleanLine =
  'step "extract": 20 records from https://shop.test/orders in 37 ms, window w-3 of pool default';
const logObject = {
  reqId: 'r-42',
  task: 'shop/login',
  params: { selector: '#password', keys: 'Tr0ub4dor&3-horse', timeoutMs: 10_000 },
  items: Array.from({ length: 20 }, (_, i) => ({ title: `Item ${i}`, price: i * 3 })),
};

const sink = { write: (_line: string) => undefined };
const plainLogger = pino({ level: 'info' }, sink);
const redactedLogger = pino(
  { level: 'info', ...pinoRedaction(redactor) },
  createRedactingDestination(redactor, sink),
);

await measure('redact(): 150-char line with 2 secrets', 20_000, () => redactor.redact(line));
await measure('redact(): 100-char line without secrets', 20_000, () => redactor.redact(cleanLine));
await measure('redactDeep(): log object, 20 records, 1 secret', 5_000, () =>
  redactor.redactDeep(logObject),
);
await measure('pino info(obj, msg) without redaction', 5_000, () =>
  plainLogger.info(logObject, 'step done'),
);
await measure('pino info(obj, msg) with hooks + redacting destination', 5_000, () =>
  redactedLogger.info(logObject, 'step done'),
);

const config = validateSecretsConfig({
  secrets: Array.from({ length: 50 }, (_, i) => ({ name: `SECRET_${i}`, sensitive: i % 2 === 0 })),
});
if (!config.ok) throw new Error('bench config invalid');
const env = Object.fromEntries(config.value.map((d) => [d.name, `value-of-${d.name}`]));
await measure('resolveSecrets(): 50 secrets from env', 500, () =>
  resolveSecrets(config.value, { env, argv: [], isTTY: false }),
);
await measure('validateSecretsConfig(): 50 declarations', 500, () =>
  validateSecretsConfig({ secrets: config.value }),
);
