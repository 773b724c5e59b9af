import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInPty, type PtySession } from './helpers/pty.js';

const childScript = fileURLToPath(new URL('./fixtures/prompt-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'secrets-pty-'));
const sessions: PtySession[] = [];
after(() => {
  for (const s of sessions) if (s.child.exitCode === null) s.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const config = {
  secrets: [
    { name: 'SHOP_PASSWORD', description: 'Shop password', required: true, sensitive: true },
    { name: 'SHOP_USER', description: 'Shop user', required: true },
  ],
};

interface ChildResult {
  ok: boolean;
  code?: string;
  message?: string;
  values?: Record<string, string>;
  audit?: unknown[];
}

function readResult(file: string): ChildResult {
  return JSON.parse(readFileSync(file, 'utf8')) as ChildResult;
}

test('a sensitive prompt is silent on a real terminal while a plain one echoes', async () => {
  const resultFile = join(dir, 'silent.json');
  const pty = runInPty(childScript, [JSON.stringify(config), resultFile]);
  sessions.push(pty);

  await pty.waitFor('Shop password (SHOP_PASSWORD)');
  pty.type('Zq7-secret-Pw\r');
  await pty.waitFor('Shop user (SHOP_USER)');
  pty.type('alice-visible\r');
  await pty.waitFor('CHILD-DONE');
  assert.equal(await pty.exited, 0);

  const screen = pty.output();
  assert.ok(
    !screen.includes('Zq7'),
    `the secret (or its start) was echoed: ${JSON.stringify(screen)}`,
  );
  assert.ok(!screen.includes('*'.repeat(13)), 'the length of the secret was revealed by masking');
  assert.ok(screen.includes('alice-visible'), 'a non-sensitive answer is echoed');

  const result = readResult(resultFile);
  assert.equal(result.ok, true);
  assert.deepEqual(result.values, { SHOP_PASSWORD: 'Zq7-secret-Pw', SHOP_USER: 'alice-visible' });
  assert.deepEqual(result.audit, [
    { name: 'SHOP_PASSWORD', source: 'prompt', sensitive: true },
    { name: 'SHOP_USER', source: 'prompt', sensitive: false, value: 'alice-visible' },
  ]);
});

test('Ctrl-C at the prompt fails with ERR_SECRETS_PROMPT_CANCELLED', async () => {
  const resultFile = join(dir, 'cancel.json');
  const pty = runInPty(childScript, [JSON.stringify(config), resultFile]);
  sessions.push(pty);
  await pty.waitFor('Shop password (SHOP_PASSWORD)');
  pty.type('\x03');
  await pty.waitFor('CHILD-FAILED');
  await pty.exited;
  const result = readResult(resultFile);
  assert.equal(result.ok, false);
  assert.equal(result.code, 'ERR_SECRETS_PROMPT_CANCELLED');
});

test('without a terminal the prompt is skipped and the required secrets are reported', () => {
  const resultFile = join(dir, 'notty.json');
  const run = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', childScript, JSON.stringify(config), resultFile],
    { input: 'typed-but-never-read\n', encoding: 'utf8', timeout: 30_000 },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.ok(run.stdout.includes('CHILD-FAILED'));
  assert.ok(!run.stdout.includes('SHOP_PASSWORD)'), 'no prompt was shown');
  const result = readResult(resultFile);
  assert.equal(result.code, 'ERR_SECRETS_REQUIRED');
  assert.match(result.message!, /SHOP_PASSWORD, SHOP_USER/);
  assert.match(result.message!, /no terminal was available/);
});
