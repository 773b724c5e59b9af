import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'undici';
import { SseError, SseStream, type SseStreamOptions } from '../src/index.js';
import { startServer, streamCollector, waitFor, type TestServer } from './helpers/http.js';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

/** Routes the next request to a fresh SseStream and hands it to `onStream`. */
function nextStream(
  options: SseStreamOptions,
  onStream: (sse: SseStream) => void | Promise<void>,
): void {
  server.handler = (_req, res) => {
    void onStream(new SseStream(res, options));
  };
}

/** Opens the stream with undici and feeds every chunk to a collector. */
async function open(signal?: AbortSignal) {
  const res = await request(server.origin, { signal });
  const collector = streamCollector();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of res.body)
        collector.feed(decoder.decode(chunk as Buffer, { stream: true }));
    } catch (err) {
      if (!signal?.aborted) throw err;
    }
  })();
  return { res, collector, ended };
}

describe('SseStream over real HTTP', () => {
  test('sends the four spec headers with status 200', async () => {
    nextStream({ heartbeatMs: 0 }, (sse) => sse.close());
    const { res, ended } = await open();
    await ended;
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['connection'], 'keep-alive');
    assert.equal(res.headers['x-accel-buffering'], 'no');
  });

  test('events arrive in order with JSON and multi-line payloads', async () => {
    nextStream({ heartbeatMs: 0 }, async (sse) => {
      assert.equal(await sse.send('status', { text: 'one', data: null }), true);
      await sse.send('progress', { text: 'half', data: { fraction: 0.5 } });
      await sse.send('note', 'first line\nsecond line');
      await sse.send('done', { ok: true, data: [1, 2] });
      await sse.close();
    });
    const { collector, ended } = await open();
    await ended;
    assert.deepEqual(collector.items, [
      { type: 'event', event: 'status', data: '{"text":"one","data":null}' },
      { type: 'event', event: 'progress', data: '{"text":"half","data":{"fraction":0.5}}' },
      { type: 'event', event: 'note', data: 'first line\nsecond line' },
      { type: 'event', event: 'done', data: '{"ok":true,"data":[1,2]}' },
    ]);
  });

  test('a closed writer ignores later writes and the signal stays unaborted', async () => {
    let late: boolean | undefined;
    let stream: SseStream | undefined;
    nextStream({ heartbeatMs: 0 }, async (sse) => {
      stream = sse;
      await sse.send('done', { ok: true, data: null });
      await sse.close();
      await sse.close(); // idempotent
      late = await sse.send('status', { text: 'late', data: null });
    });
    const { collector, ended } = await open();
    await ended;
    await waitFor(() => late !== undefined, 'late write');
    assert.equal(late, false);
    assert.equal(stream?.closed, true);
    assert.equal(stream?.signal.aborted, false);
    assert.deepEqual(
      collector.items.map((i) => (i.type === 'event' ? i.event : i.text)),
      ['done'],
    );
  });

  test('the signal aborts when the client disconnects; later sends resolve false', async () => {
    let stream: SseStream | undefined;
    nextStream({ heartbeatMs: 0 }, async (sse) => {
      stream = sse;
      await sse.send('status', { text: 'started', data: null });
    });
    const client = new AbortController();
    const { collector, ended } = await open(client.signal);
    await waitFor(() => collector.items.length === 1, 'first event');
    client.abort();
    await ended;
    await waitFor(() => stream?.signal.aborted === true, 'server-side abort');
    assert.equal((stream!.signal.reason as Error).name, 'AbortError');
    assert.equal(stream!.closed, true);
    assert.equal(await stream!.send('status', { text: 'after', data: null }), false);
  });

  test('a : ping comment is sent on a real (short) heartbeat interval', async () => {
    let stream: SseStream | undefined;
    nextStream({ heartbeatMs: 30 }, (sse) => {
      stream = sse;
    });
    const { collector, ended } = await open();
    await waitFor(() => collector.items.length >= 2, 'two pings');
    await stream!.close();
    await ended;
    assert.deepEqual(collector.items.slice(0, 2), [
      { type: 'comment', text: 'ping' },
      { type: 'comment', text: 'ping' },
    ]);
  });

  test('heartbeat: every 15 s by default, none before (mocked clock)', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    let stream: SseStream | undefined;
    nextStream({}, (sse) => {
      stream = sse;
    });
    const { collector, ended } = await open();
    await waitFor(() => stream !== undefined, 'stream');
    const mark = async (name: string) => {
      await stream!.send(name, null);
      await waitFor(
        () => collector.items.some((i) => i.type === 'event' && i.event === name),
        name,
      );
    };
    t.mock.timers.tick(14_999);
    await mark('m1');
    t.mock.timers.tick(1);
    await mark('m2');
    t.mock.timers.tick(30_000);
    await mark('m3');
    await stream!.close();
    await ended;
    assert.deepEqual(
      collector.items.map((i) => (i.type === 'event' ? i.event : i.text.trim())),
      ['m1', 'ping', 'm2', 'ping', 'ping', 'm3'],
    );
    t.mock.timers.tick(60_000); // closed: the interval is cleared, nothing more is written
    assert.equal(collector.items.length, 6);
  });

  test('send() waits for drain while the client is not reading (back-pressure)', async () => {
    const total = 200;
    const payload = 'x'.repeat(50_000);
    let completed = 0;
    let stream: SseStream | undefined;
    nextStream({ heartbeatMs: 0 }, async (sse) => {
      stream = sse;
      for (let i = 0; i < total; i++) {
        await sse.send('chunk', { i, payload });
        completed++;
      }
      await sse.close();
    });
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    socket.pause();
    await waitFor(() => stream !== undefined, 'stream');
    // Wait until the writer stops making progress: it is parked on 'drain'.
    let last = -1;
    await waitFor(() => {
      const stalled = completed === last;
      last = completed;
      return stalled && completed > 0;
    }, 'writer to stall');
    assert.ok(completed < total, `writer should be blocked, completed ${completed}/${total}`);

    let receivedBytes = 0;
    let tail = '';
    // The SSE response keeps the connection alive: stop at the last chunk of the body.
    const lastChunk = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        receivedBytes += chunk.length;
        tail = (tail + chunk.toString('latin1')).slice(-5);
        if (tail === '0\r\n\r\n') resolve();
      });
    });
    socket.resume();
    await lastChunk;
    socket.destroy();
    assert.equal(completed, total);
    assert.ok(receivedBytes > total * payload.length, `received ${receivedBytes} bytes`);
  });
});

describe('NO_FLUSHER', () => {
  test('a response whose headers were already sent cannot stream', async () => {
    let caught: unknown;
    server.handler = (_req, res) => {
      res.writeHead(200).flushHeaders();
      try {
        new SseStream(res);
      } catch (err) {
        caught = err;
      }
      res.end('plain');
    };
    const res = await request(server.origin);
    assert.equal(await res.body.text(), 'plain');
    assert.ok(caught instanceof SseError);
    assert.equal(caught.code, 'ERR_SSE_NO_FLUSHER');
  });

  test('an object without flushHeaders cannot stream', () => {
    const fake = { write: () => true, headersSent: false } as unknown as ConstructorParameters<
      typeof SseStream
    >[0];
    assert.throws(
      () => new SseStream(fake),
      (err: unknown) => err instanceof SseError && err.code === 'ERR_SSE_NO_FLUSHER',
    );
  });
});
