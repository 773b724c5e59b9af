import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page whose text changes per step: a big counter, a sentence and a progress bar. */
export const STEPS_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>steps</title>
<style>
  body { margin: 0; font-family: sans-serif; background: #fff; color: #111; }
  header { background: #1d4ed8; color: #fff; padding: 16px 32px; font-size: 28px; }
  #step { font-size: 64px; font-weight: bold; margin: 32px; }
  #text { font-size: 22px; margin: 0 32px; }
  #bar { margin: 32px; height: 24px; width: 600px; background: #e5e7eb; }
  #fill { height: 100%; width: 0; background: #16a34a; }
</style></head>
<body>
  <header>browsertask recorder test</header>
  <div id="step">Step 0 of 10</div>
  <p id="text">Waiting to start.</p>
  <div id="bar"><div id="fill"></div></div>
  <script>
    window.setStep = (n) => {
      document.getElementById('step').textContent = 'Step ' + n + ' of 10';
      document.getElementById('text').textContent =
        'The quick brown fox jumps over the lazy dog, ' + n + ' times.';
      document.getElementById('fill').style.width = (n * 60) + 'px';
    };
  </script>
</body></html>`;

/** Serves STEPS_PAGE on 127.0.0.1; resolves its URL and the server to close. */
export async function serveSteps(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(STEPS_PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}
