import { createServer, type Server } from 'node:http';
import { once } from 'node:events';

/** The page every overhead/scaling scenario scrapes: 20 records. */
export function listPage(count = 20): string {
  const items = Array.from(
    { length: count },
    (_, i) =>
      `<li class="item"><a href="/item/${i + 1}">Item ${i + 1}</a> <span class="price">${(i + 1) * 3}.50</span></li>`,
  ).join('\n');
  return `<!doctype html><html><head><title>bench list</title></head><body><ul id="items">${items}</ul></body></html>`;
}

export interface DemoServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the list page at /list on 127.0.0.1 (any other path: 404). */
export async function startDemoServer(): Promise<DemoServer> {
  const page = listPage();
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/list')) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(page);
      return;
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/list`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
