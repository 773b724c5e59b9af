#!/usr/bin/env node
// Does whatever set-up is missing, and nothing else: pnpm, dependencies, build, a Chromium
// (and ffmpeg with --ffmpeg). Runs before `npm start` and `npm test` on a machine that may
// have only Node.js 20 and npm, so it uses nothing but Node's standard library.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, accessSync, constants } from 'node:fs';
import { join, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const wantFfmpeg = process.argv.includes('--ffmpeg');
const quiet = process.argv.includes('--quiet');
const pnpmVersion = JSON.parse(
  readFileSync(join(root, 'package.json'), 'utf8'),
).packageManager.split('@')[1];
// corepack's registry signature check fails on these machines (platform-notes.md).
const env = { ...process.env, COREPACK_INTEGRITY_KEYS: '0', COREPACK_ENABLE_DOWNLOAD_PROMPT: '0' };

function log(message) {
  if (!quiet) console.error(`[setup] ${message}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`,
    );
  }
}

function capture(cmd, args) {
  const result = spawnSync(cmd, args, {
    cwd: root,
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function which(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let aptUpdated = false;
function aptInstall(packages) {
  if (!isRoot || !which('apt-get')) return false;
  if (!aptUpdated) {
    run('apt-get', ['update', '-qq']);
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return true;
}

function ensurePnpm() {
  if (capture('pnpm', ['--version']) === pnpmVersion) return 'pnpm';
  log(`installing pnpm ${pnpmVersion}`);
  const viaNpm = spawnSync('npm', ['install', '-g', `pnpm@${pnpmVersion}`], {
    stdio: 'inherit',
    env,
  });
  if (viaNpm.status === 0 && capture('pnpm', ['--version']) === pnpmVersion) return 'pnpm';
  log('npm -g failed; trying corepack');
  run('corepack', ['enable', 'pnpm']);
  run('corepack', ['prepare', `pnpm@${pnpmVersion}`, '--activate']);
  return 'pnpm';
}

function installStamp() {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(root, 'pnpm-lock.yaml')));
  hash.update(readFileSync(join(root, 'pnpm-workspace.yaml')));
  return hash.digest('hex');
}

function ensureDependencies(pnpm) {
  const stampFile = join(root, 'node_modules', '.browsertask-install');
  const stamp = installStamp();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  log('installing dependencies (pnpm install --frozen-lockfile)');
  run(pnpm, ['install', '--frozen-lockfile']);
  writeFileSync(stampFile, stamp);
}

function build(pnpm) {
  log('building (tsc -b, incremental)');
  run(pnpm, ['exec', 'tsc', '-b']);
}

/** Same order as window-pool's detection: SERVICE_BROWSER, then the usual system names. */
function findChromium() {
  if (process.env.SERVICE_BROWSER) return process.env.SERVICE_BROWSER;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = which(name);
    if (found) return found;
  }
  return undefined;
}

function ensureChromium(pnpm) {
  if (process.env.SERVICE_CDP_URL) return;
  if (findChromium()) return;
  log('no Chromium found: installing one');
  if (aptInstall(['chromium'])) return;
  // Last resort for non-root or non-Debian machines: Playwright's own download.
  run(pnpm, ['--filter', '@browsertask/service', 'exec', 'playwright', 'install', 'chromium']);
}

function ensureFfmpeg() {
  if (which('ffmpeg')) return;
  log('no ffmpeg found: installing it (needed by the MP4 tests)');
  if (!aptInstall(['ffmpeg']))
    log('could not install ffmpeg (not root or no apt-get); MP4 tests will fail');
}

try {
  const pnpm = ensurePnpm();
  ensureDependencies(pnpm);
  ensureChromium(pnpm);
  if (wantFfmpeg) ensureFfmpeg();
  build(pnpm);
} catch (error) {
  console.error(`[setup] ${error.message}`);
  process.exit(1);
}
