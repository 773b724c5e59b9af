import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { processTree } from './procs.ts';

const cli = fileURLToPath(new URL('../../apps/service/bin/browsertask.js', import.meta.url));

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

export interface RunningService {
  readonly baseUrl: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Milliseconds from spawn to the first 200 from /health. */
  readonly readyMs: number;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `browsertask serve` on a free port with the given bundle and extra env; waits for /health. */
export async function startService(
  bundle: string,
  env: Record<string, string> = {},
): Promise<RunningService> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: {
      ...process.env,
      SERVICE_BUNDLE: bundle,
      SERVICE_PORT: String(port),
      SERVICE_HOST: '127.0.0.1',
      SERVICE_HEADLESS: 'true',
      SERVICE_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errText = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errText = (errText + chunk.toString()).slice(-20_000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`service exited (${child.exitCode}) during start-up:\n${errText}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not become ready in 90 s:\n${errText}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const readyMs = performance.now() - t0;
  return {
    baseUrl,
    pid: child.pid!,
    child,
    readyMs,
    stderr: () => errText,
    async stop() {
      if (child.exitCode !== null) return;
      const tree = processTree(child.pid!);
      child.kill('SIGTERM');
      const exited = once(child, 'exit');
      const timer = setTimeout(() => {
        for (const pid of tree) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** POST /tasks/<slug> synchronously; throws unless the envelope is ok. */
export async function runTask(
  baseUrl: string,
  slug: string,
  input: unknown = {},
): Promise<unknown> {
  const res = await fetch(`${baseUrl}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; data?: unknown; error?: { message: string } };
  if (!body.ok) throw new Error(`run of ${slug} failed: ${res.status} ${body.error?.message}`);
  return body.data;
}
