#!/usr/bin/env node
// Enforces design.md's dependency direction between workspace packages: every
// @browsertask/* dependency of a package must be listed as allowed here, and every
// workspace dependency must also be a TypeScript project reference (so tsc -b builds in order).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** design.md "Allowed dependency direction". */
export const ALLOWED = {
  '@browsertask/recipe-parser': [],
  '@browsertask/bundle-fs': [],
  '@browsertask/secrets': [],
  '@browsertask/sse': [],
  '@browsertask/recorder': [],
  '@browsertask/window-pool': [],
  '@browsertask/runner': [
    '@browsertask/recipe-parser',
    '@browsertask/bundle-fs',
    '@browsertask/window-pool',
    '@browsertask/recorder',
  ],
  '@browsertask/server': ['@browsertask/sse'],
  '@browsertask/service': '*',
  '@browsertask/examples': '*',
};

const problems = [];
for (const group of ['packages', 'apps', 'examples']) {
  const base = join(root, group);
  if (!existsSync(base)) continue;
  for (const dir of readdirSync(base)) {
    const pkgFile = join(base, dir, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    const allowed = ALLOWED[pkg.name];
    if (allowed === undefined) {
      problems.push(
        `${group}/${dir}: package ${pkg.name} is not in scripts/check-deps.mjs ALLOWED`,
      );
      continue;
    }
    const deps = {
      ...pkg.dependencies,
      ...pkg.devDependencies,
      ...pkg.peerDependencies,
      ...pkg.optionalDependencies,
    };
    const internal = Object.keys(deps).filter((d) => d.startsWith('@browsertask/'));
    for (const dep of internal) {
      if (allowed !== '*' && !allowed.includes(dep)) {
        problems.push(`${pkg.name} depends on ${dep}, which design.md does not allow`);
      }
    }
    // Source imports must match package.json: scan src/ for @browsertask/ imports.
    const srcDir = join(base, dir, 'src');
    if (existsSync(srcDir)) {
      for (const file of readdirSync(srcDir, { recursive: true })) {
        if (!String(file).endsWith('.ts')) continue;
        const text = readFileSync(join(srcDir, String(file)), 'utf8');
        for (const match of text.matchAll(/from\s+['"](@browsertask\/[a-z-]+)/g)) {
          const imported = match[1];
          if (imported !== pkg.name && !internal.includes(imported)) {
            problems.push(`${pkg.name} src/${file} imports ${imported} without declaring it`);
          }
        }
      }
    }
    const tsconfigFile = join(base, dir, 'tsconfig.json');
    if (existsSync(tsconfigFile) && pkg.dependencies) {
      const tsconfig = JSON.parse(readFileSync(tsconfigFile, 'utf8'));
      const refs = (tsconfig.references ?? []).map((r) => r.path.split('/').pop());
      for (const dep of Object.keys(pkg.dependencies).filter((d) =>
        d.startsWith('@browsertask/'),
      )) {
        const short = dep.slice('@browsertask/'.length);
        if (!refs.includes(short))
          problems.push(`${pkg.name}: tsconfig.json lacks a reference to ${short}`);
      }
    }
  }
}

if (problems.length > 0) {
  console.error('dependency boundary check failed:');
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.error('dependency boundaries OK');
