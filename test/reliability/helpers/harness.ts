/**
 * Shared pieces of the reliability suite: temp bundles, a served local page, the real
 * service as a child process, and process-leak accounting by PID tree (never by name).
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startService, type RunningService } from '../../../bench/lib/service.ts';
import { processTree } from '../../../bench/lib/procs.ts';

/** Full counts with RELIABILITY_FULL=1 (`pnpm test:reliability`), short ones in CI. */
export const FULL = process.env.RELIABILITY_FULL === '1';

/** Writes files (path → content) into a fresh temp bundle directory. */
export function writeBundle(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'browsertask-rel-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A page with 20 records and a slow endpoint, on 127.0.0.1. */
export async function startPages(): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/slow') {
      const ms = Number(url.searchParams.get('ms') ?? 2000);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><p id="done">done</p></body></html>');
      }, ms);
      return;
    }
    const items = Array.from(
      { length: 20 },
      (_, i) => `<li class="item"><a href="/i/${i}">Item ${i}</a></li>`,
    ).join('');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>rel</title></head><body><ul>${items}</ul></body></html>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Served extends RunningService {
  /** Every PID that belonged to the service tree while it ran (sampled at start and on demand). */
  readonly seenPids: Set<number>;
  sample(): void;
}

/** Starts the real service and records its process tree for the leak check. */
export async function serve(bundle: string, env: Record<string, string> = {}): Promise<Served> {
  const svc = await startService(bundle, env);
  const seenPids = new Set<number>();
  const sample = () => {
    for (const pid of processTree(svc.pid)) seenPids.add(pid);
  };
  sample();
  return Object.assign(svc, { seenPids, sample });
}

/** PIDs among `pids` still running; zombies (exited, awaiting a reaper) do not count. */
export function alive(pids: Iterable<number>): number[] {
  const out: number[] = [];
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}

/** Stops the service and returns the PIDs of its tree still running 10 s later (should be none). */
export async function stopAndCountLeaks(svc: Served): Promise<number[]> {
  svc.sample();
  await svc.stop();
  // Chromium's helpers exit a moment after the browser; give a loaded machine time.
  const deadline = Date.now() + 10_000;
  while (alive(svc.seenPids).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return alive(svc.seenPids);
}

export interface Envelope {
  ok: boolean;
  data?: unknown;
  error?: { code: string; message: string };
}

/** POST /tasks/<slug> and return {status, body}. */
export async function post(
  base: string,
  slug: string,
  body: unknown = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Envelope }> {
  const res = await fetch(`${base}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
}

export async function health(base: string): Promise<{
  ok: boolean;
  taskCount: number;
  pools: Record<string, { size: number; free: number; busy: number }>;
}> {
  return (await (await fetch(`${base}/health`)).json()) as never;
}

/** Polls /health until every pool is fully free (runs released their windows). */
export async function waitAllFree(base: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = await health(base);
    if (Object.values(h.pools).every((p) => p.free === p.size && p.busy === 0)) return;
    if (Date.now() > deadline)
      throw new Error(`pools not free after ${timeoutMs} ms: ${JSON.stringify(h.pools)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Chromium browser processes (no --type= flag) in the service's tree. */
export function browserPids(servicePid: number): number[] {
  const out: number[] = [];
  for (const pid of processTree(servicePid)) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const exe = (argv[0] ?? '').split('/').pop() ?? '';
      const isBrowser = ['chromium', 'chrome', 'chromium-browser', 'headless_shell'].includes(exe);
      if (isBrowser && !argv.some((a) => a.startsWith('--type='))) out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}
