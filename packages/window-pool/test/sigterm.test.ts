import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { alive, descendants, until } from './helpers/env.js';

const fixture = fileURLToPath(new URL('./fixtures/serve-pool.ts', import.meta.url));
let root: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'wp-sigterm-'));
});
after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

async function runAndTerminate(
  mode: 'graceful' | 'abrupt',
): Promise<{ tree: number[]; code: number | null; signal: string | null }> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', fixture, mode, join(root, mode)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
      });
      child.once('exit', () => reject(new Error(`fixture exited early: ${buf}`)));
    });
    const pids = JSON.parse(line) as number[];
    assert.equal(pids.length, 1);
    const tree = descendants(pids[0]!);
    assert.ok(tree.length > 2, 'a live Chromium tree under the service');
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.once('exit', (code, signal) => r({ code, signal })),
    );
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    return { tree, code, signal };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

it('a service that closes the pools on SIGTERM leaves no Chromium process', async () => {
  const { tree, code } = await runAndTerminate('graceful');
  assert.equal(code, 0);
  assert.deepEqual(tree.filter(alive), []);
});

it('even without a SIGTERM handler no Chromium process survives the service', async () => {
  const { tree, signal } = await runAndTerminate('abrupt');
  assert.equal(signal, 'SIGTERM');
  // Chromium exits by itself when its pipe to the dead process closes.
  await until(() => tree.every((p) => !alive(p)), 10_000, 'orphaned Chromium processes to exit');
});
