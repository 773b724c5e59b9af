/**
 * Hostile requests (issue #7): each gets its documented status and envelope, and none
 * crashes the process. Raw node:http requests so paths reach the server unnormalised.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  health,
  removeDir,
  serve,
  stopAndCountLeaks,
  writeBundle,
  type Served,
} from './helpers/harness.ts';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-MOUNT';
const PARENT = 'PARENT-FILE-OUTSIDE-THE-MOUNT';

function raw(
  port: number,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('hostile requests', { concurrency: false }, () => {
  let svc: Served;
  let port: number;
  let bundle: string;
  let outside: string;
  let served: string;

  before(async () => {
    outside = mkdtempSync(join(tmpdir(), 'browsertask-outside-'));
    writeFileSync(join(outside, 'secret.txt'), SECRET);
    // The mounted directory lives outside the bundle, next to a file it must never reveal.
    served = join(outside, 'served');
    mkdirSync(join(served, 'sub'), { recursive: true });
    mkdirSync(join(served, 'links'));
    writeFileSync(join(served, 'hello.txt'), 'hello');
    writeFileSync(join(served, 'sub', 'inner.txt'), 'inner');
    writeFileSync(join(outside, 'parent.txt'), PARENT);
    symlinkSync(join(outside, 'secret.txt'), join(served, 'links', 'secret.txt'));
    bundle = writeBundle({
      'static-mounts.yaml':
        'mounts:\n  - { prefix: /files, dir: "${REL_SERVED_DIR}", list: true, serve: true, recursive: true }\n',
      'tasks/typed.task':
        'task "typed"\n  input n int required\n  js v script "return arguments[0] * 2;" args ["{{n}}"]\nend\n',
      'tasks/echo.task': 'task "echo"\n  input s string default "x"\n  return "{{s}}"\nend\n',
    });
    svc = await serve(bundle, { REL_SERVED_DIR: served });
    port = Number(new URL(svc.baseUrl).port);
  });

  after(async () => {
    const leaks = await stopAndCountLeaks(svc);
    removeDir(bundle);
    removeDir(outside);
    assert.deepEqual(leaks, []);
  });

  async function stillServing(): Promise<void> {
    const h = await health(svc.baseUrl);
    assert.equal(h.ok, true);
  }

  test('bodies that are not a JSON object → 400 BAD_BODY', async () => {
    for (const body of ['{bad', '[1,2]', '"str"', '42', 'null', '{"a":1}{"b":2}', '\u0000']) {
      const res = await raw(port, 'POST', '/tasks/echo', body, {
        'content-type': 'application/json',
      });
      assert.equal(res.status, 400, `body ${JSON.stringify(body)} → ${res.status} ${res.body}`);
      assert.equal(JSON.parse(res.body).error.code, 'BAD_BODY');
    }
    const empty = await raw(port, 'POST', '/tasks/echo', '', {
      'content-type': 'application/json',
    });
    assert.equal(empty.status, 200, 'an empty body is an empty input');
    await stillServing();
  });

  test('a body over the limit → 413 BODY_TOO_LARGE', async () => {
    const big = JSON.stringify({ s: 'x'.repeat(2 * 1024 * 1024) });
    const res = await raw(port, 'POST', '/tasks/echo', big, { 'content-type': 'application/json' });
    assert.equal(res.status, 413);
    assert.equal(JSON.parse(res.body).error.code, 'BODY_TOO_LARGE');
    await stillServing();
  });

  test('deeply nested JSON neither crashes nor hangs the service', async () => {
    const depth = 50_000;
    const nested = `{"s":"ok","deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const res = await raw(port, 'POST', '/tasks/echo', nested, {
      'content-type': 'application/json',
    });
    assert.ok([200, 400, 413].includes(res.status), `status ${res.status}`);
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const res2 = await raw(port, 'POST', '/tasks/echo', arrays, {
      'content-type': 'application/json',
    });
    assert.equal(res2.status, 400);
    await stillServing();
  });

  test('wrong input types fail the run naming the input', async () => {
    const res = await raw(port, 'POST', '/tasks/typed', '{"n":"not a number"}', {
      'content-type': 'application/json',
    });
    assert.equal(res.status, 500);
    const env = JSON.parse(res.body);
    assert.equal(env.error.code, 'EXECUTION_FAILED');
    assert.match(env.error.message, /\bn\b/);
    const missing = await raw(port, 'POST', '/tasks/typed', '{}', {
      'content-type': 'application/json',
    });
    assert.equal(JSON.parse(missing.body).error.message, 'missing required input(s): n');
    const ok = await raw(port, 'POST', '/tasks/typed', '{"n":"21"}', {
      'content-type': 'application/json',
    });
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(JSON.parse(ok.body).data, { v: 42 });
  });

  test('traversal on a serve mount in every encoding → 403, never the file', async () => {
    const forbidden = [
      '/files/../parent.txt',
      '/files/%2e%2e/parent.txt',
      '/files/%2E%2E%2Fparent.txt',
      '/files/..%2fparent.txt',
      '/files/..%5cparent.txt',
      '/files/..\\parent.txt',
      '/files/sub/../../parent.txt',
      '/files/sub/%2e%2e/%2e%2e/parent.txt',
      '/files/hello.txt%00.png',
      '/files/links/secret.txt',
    ];
    for (const path of forbidden) {
      const res = await raw(port, 'GET', path);
      assert.equal(res.status, 403, `${path} → ${res.status}`);
      assert.equal(JSON.parse(res.body).error.code, 'FORBIDDEN');
      assert.ok(!res.body.includes(SECRET) && !res.body.includes(PARENT));
    }
    for (const path of ['/files/%252e%252e/parent.txt', '/files/%E0%A4%A']) {
      const res = await raw(port, 'GET', path);
      assert.ok([400, 403, 404].includes(res.status), `${path} → ${res.status}`);
      assert.ok(!res.body.includes(PARENT));
    }
    const ok = await raw(port, 'GET', '/files/sub/inner.txt');
    assert.equal(ok.status, 200);
    assert.equal(ok.body, 'inner');
    await stillServing();
  });

  test('task slugs with .. never reach anything but the task registry', async () => {
    for (const path of [
      '/tasks/../health',
      '/tasks/%2e%2e/health',
      '/tasks/a/../../files/hello.txt',
      '/tasks/..',
    ]) {
      const res = await raw(port, 'POST', path, '{}', { 'content-type': 'application/json' });
      assert.ok([400, 404, 500].includes(res.status), `${path} → ${res.status}`);
      const env = JSON.parse(res.body);
      assert.equal(env.ok, false);
      if (res.status === 500) assert.match(env.error.message, /^unknown task: /);
    }
    await stillServing();
  });

  test('very long headers → 431 (or a reset connection), the service keeps serving', async () => {
    // Node's parser refuses past 16 KiB with a 431 and closes the socket; a client still
    // writing its 100 KB of headers may see that close as ECONNRESET/EPIPE instead.
    const outcome = await raw(port, 'GET', '/health', undefined, {
      'x-long': 'a'.repeat(100_000),
    }).then(
      (res) => String(res.status),
      (err: NodeJS.ErrnoException) => err.code ?? 'error',
    );
    assert.ok(['431', 'ECONNRESET', 'EPIPE'].includes(outcome), outcome);
    await stillServing();
  });

  test('wrong method → 405, unknown route → 404, both as envelopes', async () => {
    const m = await raw(port, 'DELETE', '/tasks/echo');
    assert.equal(m.status, 405);
    assert.equal(JSON.parse(m.body).error.code, 'METHOD_NOT_ALLOWED');
    const r = await raw(port, 'GET', '/nope');
    assert.equal(r.status, 404);
    assert.equal(JSON.parse(r.body).error.code, 'NOT_FOUND');
  });
});
