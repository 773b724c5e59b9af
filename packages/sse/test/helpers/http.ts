import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** A node:http server on 127.0.0.1:<ephemeral> whose handler the test swaps per case. */
export interface TestServer {
  readonly origin: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const state: TestServer = {
    origin: '',
    handler: (_req, res) => res.end(),
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => state.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Parsed stream items, in arrival order: events and comments. */
export type StreamItem =
  { type: 'event'; event: string | undefined; data: string } | { type: 'comment'; text: string };

/** Feeds text chunks to eventsource-parser and records what it parses. */
export function streamCollector(): {
  items: StreamItem[];
  feed(chunk: string): void;
  events(): EventSourceMessage[];
} {
  const items: StreamItem[] = [];
  const parser = createParser({
    onEvent: (e) => items.push({ type: 'event', event: e.event, data: e.data }),
    onComment: (text) => items.push({ type: 'comment', text }),
  });
  return {
    items,
    feed: (chunk) => parser.feed(chunk),
    events: () =>
      items
        .filter((i): i is Extract<StreamItem, { type: 'event' }> => i.type === 'event')
        .map((i) => ({ event: i.event, data: i.data, id: undefined })),
  };
}

/** Polls `predicate` every 10 ms until true or `timeoutMs` elapses (then throws). */
export async function waitFor(
  predicate: () => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
