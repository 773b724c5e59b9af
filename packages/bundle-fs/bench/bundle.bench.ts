// Cost of version() and of a full re-read (list + read every file) for directory and zip
// bundles of 10, 100 and 1,000 task files. Prints a Markdown table of medians.
// Run: pnpm --filter @browsertask/bundle-fs bench   (bounded: ~2 s of timing per measure, ~1 min)
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openBundle, type Bundle } from '../src/index.js';
import { makeZip } from '../test/helpers/zip.js';

const SIZES = [10, 100, 1000];
const BUDGET_MS = 2000;
const MIN_RUNS = 9;
const MAX_RUNS = 200;

function taskText(i: number): string {
  return `# task ${i}\ngoto "http://127.0.0.1:8080/page/${i}"\nwait ".item"\nextract text ".item .title" as titles\nemit titles\n`.repeat(
    4,
  );
}

async function median(
  fn: () => Promise<unknown>,
): Promise<{ ms: number; min: number; runs: number }> {
  await fn(); // warm-up
  const times: number[] = [];
  const start = performance.now();
  while (
    times.length < MAX_RUNS &&
    (times.length < MIN_RUNS || performance.now() - start < BUDGET_MS)
  ) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, min: times[0]!, runs: times.length };
}

async function fullRead(bundle: Bundle): Promise<number> {
  let bytes = 0;
  for (const file of await bundle.list()) bytes += (await bundle.readFile(file)).length;
  return bytes;
}

const root = await mkdtemp(join(tmpdir(), 'bundle-fs-bench-'));
const rows: string[] = [];
try {
  for (const n of SIZES) {
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) files[`tasks/group-${i % 10}/task-${i}.task`] = taskText(i);
    files['pool.yaml'] = 'pools:\n  default: { size: 2 }\n';
    files['scripts/util.js'] = 'export const x = 1;\n';
    const dir = join(root, `dir-${n}`);
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(dir, name, '..'), { recursive: true });
      await writeFile(join(dir, name), content);
    }
    const zipFile = join(root, `bundle-${n}.zip`);
    await writeFile(zipFile, await makeZip(files));

    for (const [kind, path] of [
      ['directory', dir],
      ['zip', zipFile],
    ] as const) {
      const bundle = await openBundle(path);
      const version = await median(() => bundle.version());
      const reread = await median(() => fullRead(bundle));
      const reopen = await median(async () => {
        const b = await openBundle(path);
        await b.close();
      });
      await bundle.close();
      rows.push(
        `| ${kind} | ${n} | ${version.ms.toFixed(3)} (${version.min.toFixed(3)}) | ${reread.ms.toFixed(1)} (${reread.min.toFixed(1)}) | ${reopen.ms.toFixed(1)} (${reopen.min.toFixed(1)}) |`,
      );
      console.error(`${kind} ${n}: done (${version.runs}/${reread.runs}/${reopen.runs} runs)`);
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
console.log(
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, medians (fastest run) in ms`,
);
console.log(
  '| backend | task files | version() | full re-read (list + read all) | open (validate) |',
);
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
