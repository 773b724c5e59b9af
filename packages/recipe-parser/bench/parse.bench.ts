// Parse + validate throughput of the recipe parser on a generated corpus of 1,000 recipes.
// Run: pnpm --filter @browsertask/recipe-parser bench   (bounded: about 10 s)
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromYaml, parseRecipe, toYaml } from '../src/index.js';

const dir = fileURLToPath(new URL('../test/fixtures/valid/', import.meta.url));
const bases = readdirSync(dir)
  .filter((n) => n.endsWith('.task') || n.endsWith('.webtask'))
  .map((n) => readFileSync(dir + n, 'utf8'));

// 1,000 distinct recipes: every fixture, renamed, with a few extra generated steps.
const corpus: string[] = [];
for (let i = 0; corpus.length < 1000; i++) {
  const base = bases[i % bases.length]!;
  const extra = Array.from({ length: i % 12 }, (_, k) =>
    k % 3 === 0
      ? `  goto "https://example.com/${i}/${k}?q={{q${k}}}"`
      : k % 3 === 1
        ? `  click ".item-${k}" text "Item ${k}" match contains`
        : `  emit progress "step ${k}" data { n: ${k}, tags: [a, "b"] }`,
  ).join('\n');
  const inputs = Array.from(
    { length: i % 12 },
    (_, k) => `  input q${k} string default "v${k}"`,
  ).join('\n');
  corpus.push(
    base
      .replace(/^task "([^"]*)"/m, `task "$1/${i}"\n${inputs}`)
      .replace(/\nend\s*$/, `\n${extra}\nend\n`),
  );
}
const bytes = corpus.reduce((n, s) => n + Buffer.byteLength(s), 0);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function run(label: string, fn: () => void, rounds: number): void {
  fn(); // warm-up
  const times: number[] = [];
  const deadline = performance.now() + 5000;
  for (let r = 0; r < rounds && performance.now() < deadline; r++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  console.log(
    `${label}: median ${ms.toFixed(1)} ms per 1,000 recipes (${(bytes / 1024 / 1024).toFixed(2)} MB) → ` +
      `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s, ${Math.round(1000 / (ms / 1000))} recipes/s (${times.length} rounds)`,
  );
}

let failures = 0;
run(
  'parseRecipe (parse + validate + defaults + name warnings)',
  () => {
    for (const text of corpus) if (!parseRecipe(text, 'bench.task').ok) failures++;
  },
  15,
);
const yamls = corpus.map((text) => {
  const r = parseRecipe(text, 'bench.task');
  if (!r.ok)
    throw new Error(`corpus recipe does not parse: ${JSON.stringify(r.diagnostics[0])}\n${text}`);
  return toYaml(r.task);
});
run(
  'fromYaml (YAML parse + JSON Schema + validate)',
  () => {
    for (const y of yamls) if (!fromYaml(y, 'bench.yaml').ok) failures++;
  },
  5,
);
if (failures > 0) {
  console.error(`${failures} corpus parses failed`);
  process.exit(1);
}
