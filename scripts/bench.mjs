#!/usr/bin/env node
// `pnpm bench`: runs every package's own benchmark (its "bench" script), then the
// service-level scenarios under bench/ (bench/run.ts), one after the other so they do not
// compete for the two cores. `pnpm bench <name>` runs only the matching ones.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv[2];
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim(),
};

const targets = [];
for (const group of ['packages', 'apps']) {
  for (const dir of readdirSync(join(root, group)).sort()) {
    const pkgFile = join(root, group, dir, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    if (pkg.scripts?.bench)
      targets.push({
        name: pkg.name,
        cwd: join(root, group, dir),
        cmd: ['pnpm', ['run', 'bench']],
      });
  }
}
if (existsSync(join(root, 'bench', 'run.ts'))) {
  targets.push({
    name: 'bench/run.ts (service scenarios)',
    cwd: root,
    cmd: [process.execPath, ['--import', 'tsx', 'bench/run.ts']],
  });
}

let failed = 0;
for (const t of targets.filter((t) => !only || t.name.includes(only))) {
  console.error(`\n=== ${t.name}`);
  const r = spawnSync(t.cmd[0], t.cmd[1], { cwd: t.cwd, stdio: 'inherit', env });
  if (r.status !== 0) {
    failed += 1;
    console.error(`=== ${t.name} failed (${r.status ?? r.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
