import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The Chromium the tests launch (never a Playwright download). */
export const CHROMIUM = process.env.SERVICE_BROWSER ?? '/usr/bin/chromium';

function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether pid is a live (non-zombie) process. */
export function alive(pid: number): boolean {
  const f = statFields(pid);
  return f !== undefined && f[0] !== 'Z';
}

/** pid and its live descendants, by walking /proc (never by process name). */
export function descendants(root: number): number[] {
  if (!alive(root)) return [];
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const f = statFields(Number(d));
    if (!f || f[0] === 'Z') continue;
    const ppid = Number(f[1]);
    kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]!) ?? []));
  return out;
}

/** Waits until `check()` is true (polling), failing after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A tiny loopback site: `/` (HTML), `/file.txt` (a download). */
export async function startSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/file.txt') {
      res.writeHead(200, {
        'content-type': 'text/plain',
        'content-disposition': 'attachment; filename="file.txt"',
      });
      res.end('downloaded bytes');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>site</title><a id="dl" href="/file.txt">dl</a>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Extra args the brief asks every test browser to use (the pool adds them itself). */
export const TEST_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
];
