/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk parsed JSON responses */
// A zip bundle made by `browsertask bundle`, served with a pool of 1: secrets from a
// --NAME= flag, bearer token, concurrency and acquire timeout, SSE heartbeat and
// disconnect, persistent pool across a restart (a cookie: the port, hence the origin of
// localStorage, changes between starts), no Chromium left behind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBundle } from '@browsertask/bundle-fs';
import { createTaskRegistry } from '@browsertask/runner';
import { toListingEntry } from '@browsertask/server';
import { logLines, runCli, serve, type Served } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'browsertask-zip-'));
const src = join(tmp, 'src');
const zip = join(tmp, 'bundle.zip');
const SECRET = 'zs-7f3q9-value';
const TOKEN = 'tok-test-123';
const files: Record<string, string> = {
  'pool.yaml':
    'pools:\n  default: { size: 1 }\n  keep: { size: 1, persistent: true, profile: keep-profile }\n',
  'secrets.yaml':
    'secrets:\n  - { name: ZIP_SECRET, required: true, sensitive: true, sources: [env, arg] }\n',
  'static-mounts.yaml': 'mounts:\n  - { prefix: /site, dir: ./site, list: true, serve: true }\n',
  'tasks/secret-length.task':
    'task "secret-length"\n  js n script "return arguments[0].length;" args ["{{ZIP_SECRET}}"]\n  return "{{n}}"\nend\n',
  'tasks/slow.task':
    'task "slow"\n  transport sse\n  status "starting"\n  goto "{{SERVICE_BASE_URL}}/site/index.html"\n  wait 2500\n  return "slept"\nend\n',
  'tasks/keep/write.task':
    'task "keep/write"\n  pool keep\n  input v string\n  goto "{{SERVICE_BASE_URL}}/site/index.html"\n  js _ script "document.cookie = \'v=\' + arguments[0] + \'; max-age=86400; path=/\'; return 1;" args ["{{v}}"]\nend\n',
  'tasks/keep/read.task':
    'task "keep/read"\n  pool keep\n  goto "{{SERVICE_BASE_URL}}/site/index.html"\n  js v script "return (document.cookie.match(/v=([^;]*)/) || [])[1] || null;"\n  return "{{v}}"\nend\n',
};
for (const [p, text] of Object.entries(files)) {
  mkdirSync(join(src, p, '..'), { recursive: true });
  writeFileSync(join(src, p), text);
}
// The site lives beside the zip: relative mount dirs resolve against the zip's directory.
mkdirSync(join(tmp, 'site'));
writeFileSync(join(tmp, 'site', 'index.html'), '<!doctype html><title>zip site</title><p>hi</p>');

const env = {
  SERVICE_BUNDLE: zip,
  SERVICE_TOKEN: TOKEN,
  SERVICE_ACQUIRE_TIMEOUT_MS: '1000',
  SERVICE_HEARTBEAT_MS: '200',
  SERVICE_PROFILE_DIR: join(tmp, 'profiles'),
  SERVICE_DOWNLOADS_DIR: join(tmp, 'downloads'),
  ZIP_SECRET: undefined,
};
const auth = { authorization: `Bearer ${TOKEN}` };
let svc: Served;

/** PIDs of the process tree under `pid`. */
function tree(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [p, pp] of rows) if (pp === out[i]) out.push(p);
  return out.slice(1);
}
/** Whether `pid` is a live process (a zombie awaiting its reaper is not). */
const alive = (pid: number): boolean => {
  try {
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
    return !stat.trim().startsWith('Z');
  } catch {
    return false; // ps exits 1: no such process
  }
};

async function post(slug: string, body: unknown = {}, headers: Record<string, string> = auth) {
  const res = await fetch(`${svc.baseUrl}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { res, json: await res.json() };
}
const health = async (): Promise<any> => (await fetch(`${svc.baseUrl}/health`)).json();

before(async () => {
  const made = await runCli(['bundle', src, zip]);
  assert.equal(made.code, 0, made.stderr);
  svc = await serve(env, [`--ZIP_SECRET=${SECRET}`]);
});
after(async () => {
  await svc?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('zip bundle', () => {
  it('logs that it opened a zip bundle', () => {
    assert.ok(logLines(svc.stderr()).some((l) => l.msg === 'opened zip bundle'));
  });

  it('has the same task registry as its source directory', async () => {
    const fromDir = await openBundle(src);
    const fromZip = await openBundle(zip);
    try {
      const a = await createTaskRegistry(fromDir).list();
      const b = await createTaskRegistry(fromZip).list();
      assert.deepEqual(b, a);
      const served = await (await fetch(`${svc.baseUrl}/tasks`, { headers: auth })).json();
      // The HTTP listing is the same registry through the server's listing shape.
      assert.deepEqual(served, JSON.parse(JSON.stringify(a.map(toListingEntry))));
    } finally {
      await fromDir.close();
      await fromZip.close();
    }
  });

  it('reads a secret from a --NAME= flag and never logs it', async () => {
    const { json } = await post('secret-length');
    assert.equal(json.data, SECRET.length);
    assert.doesNotMatch(svc.stderr(), new RegExp(SECRET));
    assert.match(svc.stderr(), /ZIP_SECRET from arg/);
  });

  it('requires the bearer token everywhere but /health', async () => {
    const { res, json } = await post('secret-length', {}, {});
    assert.equal(res.status, 401);
    assert.equal(json.error.code, 'UNAUTHORIZED');
    assert.equal((await fetch(`${svc.baseUrl}/health`)).status, 200);
  });

  it('bounds concurrency by the pool size: the second caller times out acquiring', async () => {
    const first = post('slow');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual((await health()).pools.default, { size: 1, free: 0, busy: 1 });
    const second = await post('slow');
    assert.equal(second.res.status, 500);
    assert.deepEqual(second.json.error, {
      code: 'EXECUTION_FAILED',
      message: 'acquire timeout: default',
    });
    assert.equal((await first).json.data, 'slept');
    assert.equal((await health()).pools.default.free, 1);
  });

  it('sends SSE heartbeats, and a disconnect releases the window', async () => {
    const controller = new AbortController();
    const res = await fetch(`${svc.baseUrl}/tasks/slow`, {
      method: 'POST',
      headers: { ...auth, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(': ping')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    assert.match(text, /event: status/);
    assert.match(text, /: ping/);
    assert.equal((await health()).pools.default.busy, 1);
    controller.abort();
    let free = 0;
    for (let i = 0; i < 50 && free !== 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      free = (await health()).pools.default.free;
    }
    assert.equal(free, 1, 'window released after the client went away');
  });

  it('keeps a persistent pool profile across a restart, leaving no Chromium behind', async () => {
    assert.equal((await post('keep/write', { v: 'kept-42' })).json.ok, true);
    const browsers = tree(svc.child.pid!);
    assert.ok(browsers.length > 0);
    assert.equal(await svc.stop(), 0);
    assert.deepEqual(browsers.filter(alive), [], 'no browser process survives shutdown');
    svc = await serve({ ...env, ZIP_SECRET: SECRET });
    assert.match(svc.stderr(), /ZIP_SECRET from env/);
    assert.equal((await post('keep/read')).json.data, 'kept-42');
  });
});
