import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { RunTaskContext } from '../src/index.js';
import {
  LISTING,
  fakeCatalogue,
  fakeRunTask,
  recordingLogger,
  startHarness,
  waitFor,
  type Harness,
} from './helpers/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('open server (no token)', () => {
  let h: Harness;
  const catalogue = fakeCatalogue([...LISTING]);
  const logger = recordingLogger();
  let seen: RunTaskContext | undefined;
  let hang: { signal?: AbortSignal; started: boolean } = { started: false };
  const runTask = fakeRunTask({
    'demo/title': async (_n, input, ctx) => {
      seen = ctx;
      await ctx.publish({ kind: 'status', text: 'ignored for sync callers' });
      return { title: 'Hello', echo: input };
    },
    nothing: () => Promise.resolve(undefined),
    fails: () => Promise.reject(new Error('step "wait": context deadline exceeded')),
    leaky: () => Promise.reject(new Error('login failed with hunter2')),
    hangs: (_n, _i, ctx) => {
      hang = { signal: ctx.signal, started: true };
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    },
  });

  before(async () => {
    h = await startHarness({
      catalogue,
      runTask,
      health: () => ({ default: { size: 2, free: 1, busy: 1 } }),
      logger,
      redact: (text) => text.replaceAll('hunter2', '[REDACTED]'),
      maxBodyBytes: 1024,
    });
  });
  after(() => h.close());

  test('GET /health → ok, live taskCount and pools', async () => {
    const r = await h.req('GET', '/health');
    assert.equal(r.status, 200);
    assert.match(r.headers['content-type']!, /^application\/json/);
    assert.deepEqual(r.json, {
      ok: true,
      taskCount: 1,
      pools: { default: { size: 2, free: 1, busy: 1 } },
    });
    catalogue.entries.push({ ...LISTING[0]!, name: 'second', input: {} });
    const again = await h.req('GET', '/health');
    assert.equal(again.json.taskCount, 2);
    catalogue.entries.pop();
  });

  test('GET /tasks → listing with exactly the spec fields', async () => {
    catalogue.entries.push({
      name: 'extra',
      poolTag: 'shop',
      transports: ['rest'],
      timeoutMs: 1000,
      input: { n: { type: 'int', required: false } },
      // fields the catalogue may carry that are not part of the listing
      ...({ flow: [], source: 'tasks/extra.task' } as object),
    });
    const r = await h.req('GET', '/tasks');
    catalogue.entries.pop();
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, [
      {
        name: 'demo/title',
        poolTag: 'default',
        transports: ['rest', 'sse'],
        timeoutMs: 60000,
        input: {
          url: {
            type: 'string',
            required: false,
            default: 'http://127.0.0.1/',
            doc: 'Page to open',
          },
          q: { type: 'string', required: true, doc: 'Query' },
        },
      },
      {
        name: 'extra',
        poolTag: 'shop',
        transports: ['rest'],
        timeoutMs: 1000,
        input: { n: { type: 'int', required: false, doc: '' } },
      },
    ]);
  });

  test('POST /tasks/<slug/with/slashes> → 200 {ok, data}; input, requestId and a no-op publish', async () => {
    const r = await h.req('POST', '/tasks/demo/title', {
      headers: { 'content-type': 'application/json', 'x-request-id': 'caller-42' },
      body: JSON.stringify({ q: 'x', n: 1 }),
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { ok: true, data: { title: 'Hello', echo: { q: 'x', n: 1 } } });
    assert.equal(r.headers['x-request-id'], 'caller-42');
    assert.equal(seen?.requestId, 'caller-42');
    assert.equal(seen?.signal.aborted, false);
    assert.equal(r.text.includes('ignored'), false);
  });

  test('an absent body is {} and undefined data becomes null', async () => {
    const r = await h.req('POST', '/tasks/nothing');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { ok: true, data: null });
    assert.deepEqual(runTask.calls.at(-1)?.input, {});
  });

  test('a failing run → 500 EXECUTION_FAILED with the runner message', async () => {
    const r = await h.req('POST', '/tasks/fails', { body: '{}' });
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, {
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: 'step "wait": context deadline exceeded' },
    });
    const unknown = await h.req('POST', '/tasks/no/such/task');
    assert.equal(unknown.status, 500);
    assert.deepEqual(unknown.json.error, {
      code: 'EXECUTION_FAILED',
      message: 'unknown task: no/such/task',
    });
  });

  test('redact is applied to error messages and log lines', async () => {
    const r = await h.req('POST', '/tasks/leaky');
    assert.equal(r.json.error.message, 'login failed with [REDACTED]');
    await h.req('GET', '/nope/hunter2');
    await waitFor(
      () => logger.lines.some((l) => String(l.obj['path']).includes('REDACTED')),
      'log',
    );
    assert.equal(
      JSON.stringify(logger.lines.map((l) => ({ ...l.obj, err: undefined }))).includes('hunter2'),
      false,
    );
  });

  test('missing task name → 400 MISSING_NAME', async () => {
    for (const path of ['/tasks', '/tasks/', '/tasks//']) {
      const r = await h.req('POST', path);
      assert.equal(r.status, 400, path);
      assert.equal(r.json.error.code, 'MISSING_NAME', path);
    }
  });

  test('bad bodies → 400 BAD_BODY', async () => {
    for (const body of ['{not json', '[1,2]', 'null', '"text"', '42']) {
      const r = await h.req('POST', '/tasks/demo/title', {
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.equal(r.status, 400, body);
      assert.equal(r.json.ok, false);
      assert.equal(r.json.error.code, 'BAD_BODY', body);
    }
  });

  test('a body larger than maxBodyBytes → 413 BODY_TOO_LARGE (Content-Length and chunked)', async () => {
    const big = JSON.stringify({ q: 'x'.repeat(2000) });
    const r = await h.req('POST', '/tasks/demo/title', { body: big });
    assert.equal(r.status, 413);
    assert.equal(r.json.error.code, 'BODY_TOO_LARGE');
    // Chunked: no Content-Length, the limit is enforced while reading.
    const res = await h.client.request({
      method: 'POST',
      path: '/tasks/demo/title',
      body: Readable.from(Array.from({ length: 8 }, () => Buffer.alloc(512, 0x20))),
    });
    assert.equal(res.statusCode, 413);
    assert.equal(
      ((await res.body.json()) as { error: { code: string } }).error.code,
      'BODY_TOO_LARGE',
    );
    // The connection stays usable.
    assert.equal((await h.req('GET', '/health')).status, 200);
  });

  test('unknown route → 404 NOT_FOUND envelope', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/nope'],
      ['DELETE', '/nope/x'],
    ] as const) {
      const r = await h.req(method, path);
      assert.equal(r.status, 404, path);
      assert.equal(r.json.ok, false);
      assert.equal(r.json.error.code, 'NOT_FOUND');
    }
  });

  test('wrong method on a known route → 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const health = await h.req('POST', '/health');
    assert.equal(health.status, 405);
    assert.equal(health.json.error.code, 'METHOD_NOT_ALLOWED');
    assert.match(health.headers['allow']!, /GET/);
    const task = await h.req('GET', '/tasks/demo/title');
    assert.equal(task.status, 405);
    assert.equal(task.headers['allow'], 'POST');
    assert.equal(task.json.error.code, 'METHOD_NOT_ALLOWED');
  });

  test('X-Request-Id: generated as a UUID, echoed when sane, replaced when not', async () => {
    const gen = await h.req('GET', '/health');
    assert.match(gen.headers['x-request-id']!, UUID);
    const echo = await h.req('GET', '/nope', { headers: { 'x-request-id': 'abc.DEF-1:2_3' } });
    assert.equal(echo.headers['x-request-id'], 'abc.DEF-1:2_3');
    const insane = await h.req('GET', '/health', { headers: { 'x-request-id': 'a b<script>' } });
    assert.match(insane.headers['x-request-id']!, UUID);
    const fail = await h.req('POST', '/tasks/fails');
    assert.match(fail.headers['x-request-id']!, UUID);
  });

  test('request log lines carry method, path, status, ms and reqId', async () => {
    const r = await h.req('GET', '/tasks', { headers: { 'x-request-id': 'log-check' } });
    await waitFor(() => logger.lines.some((l) => l.obj['reqId'] === 'log-check'), 'log line');
    const line = logger.lines.find((l) => l.obj['reqId'] === 'log-check')!;
    assert.equal(r.status, 200);
    assert.equal(line.msg, 'request completed');
    assert.equal(line.obj['method'], 'GET');
    assert.equal(line.obj['path'], '/tasks');
    assert.equal(line.obj['status'], 200);
    assert.equal(typeof line.obj['ms'], 'number');
  });

  test('a synchronous caller that disconnects aborts the run signal', async () => {
    hang = { started: false };
    const { port } = new URL(h.origin);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write('POST /tasks/hangs HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    await waitFor(() => hang.started, 'run start');
    assert.equal(hang.signal?.aborted, false);
    socket.destroy();
    await waitFor(() => hang.signal?.aborted === true, 'abort');
  });
});

describe('SERVICE_TOKEN auth', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      catalogue: fakeCatalogue([...LISTING]),
      runTask: fakeRunTask({ ok: () => Promise.resolve(1) }),
      token: 's3cret-token',
    });
  });
  after(() => h.close());

  test('GET /health stays open', async () => {
    const r = await h.req('GET', '/health');
    assert.equal(r.status, 200);
    assert.equal(r.json.ok, true);
  });

  test('every other route needs the bearer token → 401 UNAUTHORIZED', async () => {
    const cases: ['GET' | 'POST', string, Record<string, string>][] = [
      ['GET', '/tasks', {}],
      ['POST', '/tasks/ok', {}],
      ['GET', '/nope', {}],
      ['POST', '/health', {}],
      ['GET', '/tasks', { authorization: 'Bearer wrong' }],
      ['GET', '/tasks', { authorization: 'Bearer s3cret-token-but-longer' }],
      ['GET', '/tasks', { authorization: 's3cret-token' }],
      ['GET', '/tasks', { authorization: 'Basic s3cret-token' }],
    ];
    for (const [method, path, headers] of cases) {
      const r = await h.req(method, path, { headers });
      assert.equal(r.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
      assert.equal(r.json.error.code, 'UNAUTHORIZED');
      assert.equal(r.headers['www-authenticate'], 'Bearer');
      assert.ok(r.headers['x-request-id']);
    }
  });

  test('the right token passes', async () => {
    const headers = { authorization: 'Bearer s3cret-token' };
    assert.equal((await h.req('GET', '/tasks', { headers })).status, 200);
    const run = await h.req('POST', '/tasks/ok', { headers });
    assert.deepEqual(run.json, { ok: true, data: 1 });
  });
});
