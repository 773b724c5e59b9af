#!/usr/bin/env node
// Proves the published shape works: `pnpm -r pack` every public package, install the
// tarballs into an empty scratch project with npm, and import each one from plain Node
// (no tsx, no "source" condition) checking that its public API is there.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'browsertask-pack-'));
const tarballs = join(scratch, 'tarballs');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, COREPACK_INTEGRITY_KEYS: '0' },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status})`);
}

try {
  run('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], root);
  const files = readdirSync(tarballs)
    .filter((f) => f.endsWith('.tgz'))
    .sort();
  const names = readdirSync(join(root, 'packages')).map(
    (d) => JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')).name,
  );
  if (files.length !== names.length)
    throw new Error(`expected ${names.length} tarballs, got ${files.length}`);
  const app = join(scratch, 'app');
  run('mkdir', ['-p', app], scratch);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
  );
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      ...files.map((f) => join(tarballs, f)),
    ],
    app,
  );
  const probe = names
    .map(
      (n) =>
        `{ const m = await import('${n}'); const k = Object.keys(m); if (k.length === 0) throw new Error('${n} exports nothing'); console.log('${n}: ' + k.length + ' exports'); }`,
    )
    .join('\n');
  writeFileSync(join(app, 'probe.mjs'), probe);
  run(process.execPath, ['probe.mjs'], app);
  console.error(`pack check OK: ${files.length} tarballs installed and imported`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
