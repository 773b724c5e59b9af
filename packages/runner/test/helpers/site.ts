// A local test site on 127.0.0.1: every page the action tests drive.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const items = Array.from(
  { length: 20 },
  (_, i) =>
    `<li class="item" data-sku="sku-${i}"><span class="name"> Item ${i} </span><a href="/p/${i}">link</a><span class="price">$1,${String(i).padStart(3, '0')}</span><b class="tags"><i>t${i}</i></b></li>`,
).join('');

const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Home</title><h1>Hello</h1><ul id="list">${items}</ul>`,
  '/late': `<!doctype html><title>Late</title><div id="root"></div>
    <script>setTimeout(() => { document.getElementById('root').innerHTML = '<p class="ready">ok</p>'; }, 150);</script>`,
  '/form': `<!doctype html><title>Form</title><input id="q"><div class="rows">
    <div class="row" data-id="1"><span class="name">Ann Lee</span></div>
    <div class="row" data-id="2"><span class="name">Nicholas Huang</span></div></div>
    <button id="go">Go</button><p id="out"></p><p id="row"></p>
    <script>
      document.getElementById('go').addEventListener('click', (e) => {
        document.getElementById('out').textContent = (e.isTrusted ? 'trusted:' : 'untrusted:') + document.getElementById('q').value;
      });
      for (const r of document.querySelectorAll('.row')) r.addEventListener('click', (e) => {
        document.getElementById('row').textContent = 'row ' + r.dataset.id + (e.isTrusted ? ' trusted' : '');
      });
    </script>`,
  '/scroll': `<!doctype html><title>Scroll</title><div id="box" style="height:100px;overflow:auto"></div>
    <script>
      const box = document.getElementById('box'); let loads = 0;
      const add = (n) => { for (let i = 0; i < n; i++) { const d = document.createElement('div'); d.style.height = '40px'; d.textContent = 'm'; box.prepend(d); } };
      add(10); box.scrollTop = box.scrollHeight;
      box.addEventListener('scroll', () => { if (box.scrollTop === 0 && loads < 3) { loads++; setTimeout(() => add(5), 20); } });
    </script>`,
  '/downloads': `<!doctype html><title>Downloads</title><a class="dl" href="/file/a.txt">a</a> <a class="dl" href="/file/b.txt">b</a>`,
  '/network': `<!doctype html><title>Net</title><p id="n"></p>
    <script>fetch('/api/data').then(r => r.json()).then(j => { document.getElementById('n').textContent = j.value; console.log('loaded', j.value); });</script>`,
  '/blobs': `<!doctype html><title>Blobs</title>
    <script>window.__browsertaskCaptures = [
      { id: 7, name: 'report.txt', mime: 'text/plain', url: 'blob:x', bytesB64: btoa('hello blob') },
      { id: 8, name: 'later.bin', mime: 'application/octet-stream', url: 'blob:y', bytesB64: '', ready: false }];</script>`,
  '/hang': `<!doctype html><title>Hang</title><button id="spin" onclick="for(;;){}">spin</button>`,
  '/anim': `<!doctype html><title>Anim</title><div id="b" style="width:50px;height:50px;background:red"></div>
    <script>let x = 0; setInterval(() => { x = (x + 10) % 300; document.getElementById('b').style.marginLeft = x + 'px'; }, 50);</script>`,
};

/** A running test site. */
export interface Site {
  readonly url: string;
  /** Requests seen, by path (for assertions on http-request). */
  readonly hits: { method: string; path: string; body: string; headers: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** Starts the site on an ephemeral 127.0.0.1 port. */
export async function startSite(): Promise<Site> {
  const hits: Site['hits'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      hits.push({
        method: req.method ?? 'GET',
        path,
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      });
      if (path.startsWith('/file/')) {
        const name = path.slice('/file/'.length);
        res.writeHead(200, {
          'content-type': 'text/plain',
          'content-disposition': `attachment; filename="${name}"`,
        });
        res.end(`content of ${name}`);
        return;
      }
      if (path === '/api/data') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-test': 'yes' });
        res.end(
          JSON.stringify({
            value: 42,
            method: req.method,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        return;
      }
      if (path === '/api/text') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not json');
        return;
      }
      if (path === '/set-cookie') {
        res.writeHead(200, { 'set-cookie': 'sid=abc123; Path=/', 'content-type': 'text/html' });
        res.end('<!doctype html><title>c</title>cookie set');
        return;
      }
      const page = PAGES[path];
      if (page === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
