import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createParser } from 'eventsource-parser';
import type { Middleware } from 'koa';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createApp } from '../src/index.js';
import {
  fakeCatalogue,
  fakeRunTask,
  startHarness,
  waitFor,
  type Harness,
} from './helpers/server.js';

interface Item {
  event?: string;
  data?: unknown;
  comment?: string;
}

/** POSTs with Accept: text/event-stream and parses the stream with eventsource-parser. */
async function openStream(
  origin: string,
  path: string,
  opts: { body?: string; signal?: AbortSignal } = {},
) {
  const res = await request(`${origin}${path}`, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
    body: opts.body,
    signal: opts.signal,
  });
  const items: Item[] = [];
  const parser = createParser({
    onEvent: (e) => items.push({ event: e.event, data: JSON.parse(e.data) as unknown }),
    onComment: (c) => items.push({ comment: c }),
  });
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of res.body)
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
    } catch (err) {
      if (!opts.signal?.aborted) throw err;
    }
  })();
  return { res, items, ended };
}

describe('POST /tasks/<name> with Accept: text/event-stream', () => {
  let h: Harness;
  let hang: { signal?: AbortSignal; aborted: boolean } = { aborted: false };
  let release: (() => void) | undefined;
  before(async () => {
    h = await startHarness({
      catalogue: fakeCatalogue([]),
      heartbeatMs: 25,
      runTask: fakeRunTask({
        steps: async (_n, input, { publish }) => {
          await publish({ kind: 'status', text: 'opening page' });
          await publish({ kind: 'progress', text: 'half', data: { fraction: 0.5 } });
          await publish({
            kind: 'recording',
            text: 'recorded',
            data: { path: '/r/1.gif', step: 2, ok: true },
          });
          await publish({ kind: 'done', text: 'forged terminal event' });
          return { got: input };
        },
        fails: async (_n, _i, { publish }) => {
          await publish({ kind: 'status', text: 'trying' });
          throw new Error('acquire timeout: default');
        },
        waits: async () => {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return 'late';
        },
        hangs: (_n, _i, ctx) => {
          hang = { signal: ctx.signal, aborted: false };
          ctx.signal.addEventListener('abort', () => {
            hang.aborted = true;
          });
          return new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
          });
        },
      }),
    });
  });
  after(() => h.close());

  test('answers with the four SSE headers and X-Request-Id', async () => {
    const { res, ended } = await openStream(h.origin, '/tasks/steps');
    await ended;
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['connection'], 'keep-alive');
    assert.equal(res.headers['x-accel-buffering'], 'no');
    assert.ok(res.headers['x-request-id']);
  });

  test('published events in order, then exactly one terminal done with the sync data', async () => {
    const { items, ended } = await openStream(h.origin, '/tasks/steps', { body: '{"a":1}' });
    await ended;
    const events = items.filter((i) => i.event !== undefined);
    assert.deepEqual(events, [
      { event: 'status', data: { text: 'opening page', data: null } },
      { event: 'progress', data: { text: 'half', data: { fraction: 0.5 } } },
      {
        event: 'recording',
        data: { text: 'recorded', data: { path: '/r/1.gif', step: 2, ok: true } },
      },
      { event: 'done', data: { ok: true, data: { got: { a: 1 } } } },
    ]);
  });

  test('a failed run ends with one error event {message}', async () => {
    const { items, ended } = await openStream(h.origin, '/tasks/fails');
    await ended;
    assert.deepEqual(
      items.filter((i) => i.event !== undefined),
      [
        { event: 'status', data: { text: 'trying', data: null } },
        { event: 'error', data: { message: 'acquire timeout: default' } },
      ],
    );
  });

  test('body errors are still plain JSON envelopes before the stream starts', async () => {
    const res = await request(`${h.origin}/tasks/steps`, {
      method: 'POST',
      headers: { accept: 'text/event-stream' },
      body: '[]',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(((await res.body.json()) as { error: { code: string } }).error.code, 'BAD_BODY');
  });

  test(': ping heartbeats flow while the run is busy (short heartbeatMs)', async () => {
    release = undefined;
    const { items, ended } = await openStream(h.origin, '/tasks/waits');
    await waitFor(() => items.filter((i) => i.comment === 'ping').length >= 2, 'two pings');
    release!();
    await ended;
    assert.deepEqual(items.at(-1), { event: 'done', data: { ok: true, data: 'late' } });
    assert.ok(items.slice(0, -1).every((i) => i.comment === 'ping'));
  });

  test('client disconnect aborts the run signal', async () => {
    hang = { aborted: false };
    const client = new AbortController();
    const { ended } = await openStream(h.origin, '/tasks/hangs', { signal: client.signal });
    await waitFor(() => hang.signal !== undefined, 'run start');
    assert.equal(hang.aborted, false);
    client.abort();
    await ended;
    await waitFor(() => hang.aborted, 'run signal abort');
    assert.equal(hang.signal?.aborted, true);
  });

  test('a response that cannot stream → 500 NO_FLUSHER', async () => {
    // Stand-in for a response wrapper without flushing (the spec's "writer cannot stream").
    const noFlush: Middleware = async (ctx, next) => {
      Object.defineProperty(ctx.res, 'flushHeaders', { value: undefined });
      await next();
    };
    const app = createApp({ catalogue: fakeCatalogue([]), runTask: () => Promise.resolve(1) });
    app.middleware.unshift(noFlush);
    const server = createHttpServer((req, res) => {
      void app.callback()(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await request(`http://127.0.0.1:${port}/tasks/steps`, {
        method: 'POST',
        headers: { accept: 'text/event-stream' },
      });
      assert.equal(res.statusCode, 500);
      assert.ok(res.headers['x-request-id']);
      const body = (await res.body.json()) as { ok: boolean; error: { code: string } };
      assert.equal(body.ok, false);
      assert.equal(body.error.code, 'NO_FLUSHER');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
