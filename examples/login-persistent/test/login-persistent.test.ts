// examples/login-persistent end to end: the real `browsertask serve` (real Chromium, real
// HTTP) on the example bundle with a temp SERVICE_PROFILE_DIR. Two service starts: the
// first begins on a fresh profile (signed out), signs in; the second, on the same profile
// dir and a new port, is still signed in without running account/login.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { logLines, serve, type Served } from '../../../apps/service/test/helpers/cli.js';

const bundle = fileURLToPath(new URL('../bundle', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'browsertask-login-persistent-'));
const env = {
  SERVICE_BUNDLE: bundle,
  SERVICE_PROFILE_DIR: join(tmp, 'profiles'),
  SERVICE_DOWNLOADS_DIR: join(tmp, 'downloads'),
  // The default of the secret is used: no prompt, no env value needed.
  ACCOUNT_PASSWORD: undefined,
};
let svc: Served | undefined;

after(async () => {
  await svc?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

interface Envelope {
  ok: boolean;
  data?: { status?: string; orders?: { id: string; item: string; total: number }[] };
  error?: { code: string; message: string };
}

async function post(slug: string, body: unknown = {}): Promise<Envelope> {
  assert.ok(svc);
  const res = await fetch(`${svc.baseUrl}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Envelope;
}

test('a fresh profile is signed out; account/login signs in', async () => {
  svc = await serve(env);
  assert.equal((await (await fetch(`${svc.baseUrl}/health`)).json()).pools.account.size, 1);

  const before = await post('account/data');
  assert.equal(before.ok, true);
  assert.equal(before.data?.status, 'Please sign in');
  assert.deepEqual(before.data?.orders, [], 'no account data while signed out');

  const login = await post('account/login', { user: 'grace' });
  assert.deepEqual(login, { ok: true, data: { status: 'Signed in as grace' } });

  const afterLogin = await post('account/data');
  assert.equal(afterLogin.data?.status, 'Signed in as grace');
  assert.equal(afterLogin.data?.orders?.length, 3);
  assert.ok(
    existsSync(join(env.SERVICE_PROFILE_DIR, 'demo-account')),
    'profile dir named by pool.yaml',
  );
  // The sensitive default never reaches the log.
  assert.doesNotMatch(svc.stderr(), /correct-horse/);
  assert.equal(await svc.stop(), 0);
});

test('after a restart on the same profile dir the session is still there', async () => {
  const firstUrl = svc?.baseUrl;
  svc = await serve(env);
  assert.notEqual(svc.baseUrl, firstUrl, 'a new port: the cookie is per host, not per port');
  const data = await post('account/data');
  assert.equal(data.ok, true);
  assert.equal(data.data?.status, 'Signed in as grace');
  assert.deepEqual(
    data.data?.orders?.map((o) => o.id),
    ['A-1001', 'A-1002', 'A-1003'],
  );
  assert.equal(data.data?.orders?.[0]?.total, 89.9);
  // account/login never ran on this server: the only run is account/data.
  const runs = logLines(svc.stderr())
    .filter((l) => l.msg === 'run finished')
    .map((l) => l.task);
  assert.deepEqual(runs, ['account/data']);
});
