#!/usr/bin/env node
// One test runner for the whole repo: node:test through tsx with an explicit file list
// (Node 20 has no globs in --test). `node scripts/test.mjs [dir ...]` runs the tests under
// those directories (default: every package, app and example); an empty list fails.
import { spawn } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
// --reliability: only the reliability suite (test/reliability), in its full form.
const reliabilityOnly = args.includes('--reliability');
const flags = args.filter((a) => a.startsWith('--') && a !== '--reliability');
const dirs = args.filter((a) => !a.startsWith('--')).map((d) => resolve(d));
// Browser tests are CPU-heavy: two files at a time on these 2-core machines.
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const SKIP_DIRS = new Set(['node_modules', 'dist', 'fixtures', 'helpers', '.git']);

function workspaceDirs() {
  const out = [];
  for (const group of ['packages', 'apps', 'examples']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) out.push(join(base, name));
  }
  return out;
}

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    if (SKIP_DIRS.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) collect(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
}

const files = [];
// The root test/ holds the cross-package reliability suite (short form in every run).
for (const dir of dirs.length > 0 ? dirs : [...workspaceDirs(), root]) {
  const testDir = join(dir, 'test');
  if (existsSync(testDir)) collect(testDir, files);
}
const inScope = reliabilityOnly ? files.filter((f) => f.includes('/reliability/')) : files;
const selected = process.env.TEST_FILTER
  ? inScope.filter((f) => f.includes(process.env.TEST_FILTER))
  : inScope;

if (selected.length === 0) {
  console.error('scripts/test.mjs: no test files found; refusing to pass on an empty run');
  process.exit(1);
}

console.error(`running ${selected.length} test files:`);
for (const f of selected) console.error(`  ${relative(root, f)}`);

const child = spawn(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, ...flags, ...selected],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      // tsx runs TypeScript; the "source" condition points workspace packages at src/.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source --import tsx`.trim(),
      ...(reliabilityOnly ? { RELIABILITY_FULL: '1' } : {}),
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
