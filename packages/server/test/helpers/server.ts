import { Client } from 'undici';
import type { Dispatcher } from 'undici';
import {
  createServer,
  type AppOptions,
  type BrowsertaskServer,
  type Logger,
  type RunTask,
  type TaskCatalogue,
  type TaskListingEntry,
} from '../../src/index.js';

/** A boundary fake of the runner's task catalogue. */
export function fakeCatalogue(entries: TaskListingEntry[]): TaskCatalogue & {
  entries: TaskListingEntry[];
} {
  return {
    entries,
    list: () => Promise.resolve(entries),
    count: () => Promise.resolve(entries.length),
  };
}

/** A logger that records every line. */
export function recordingLogger(): Logger & {
  lines: { level: string; obj: Record<string, unknown>; msg: string }[];
} {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at =
    (level: string) =>
    (obj: object, msg: string): void => {
      lines.push({ level, obj: obj as Record<string, unknown>, msg });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export interface Harness {
  readonly srv: BrowsertaskServer;
  readonly origin: string;
  readonly client: Client;
  /** Raw request: the path is sent exactly as given (no URL normalisation). */
  req(
    method: Dispatcher.HttpMethod,
    path: string,
    opts?: { headers?: Record<string, string>; body?: string | Buffer },
  ): Promise<{ status: number; headers: Record<string, string>; text: string; json: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON under test
  close(): Promise<void>;
}

/** Starts createServer(options) on 127.0.0.1:0 with one keep-alive undici Client. */
export async function startHarness(options: AppOptions): Promise<Harness> {
  const srv = createServer(options);
  const { url } = await srv.listen(0, '127.0.0.1');
  const client = new Client(url);
  return {
    srv,
    origin: url,
    client,
    async req(method, path, opts = {}) {
      const res = await client.request({ method, path, headers: opts.headers, body: opts.body });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (typeof v === 'string') headers[k] = v;
        else if (Array.isArray(v)) headers[k] = v.join(', ');
      }
      return { status: res.statusCode, headers, text, json };
    },
    async close() {
      await client.close();
      await srv.close({ graceMs: 0 });
    },
  };
}

/** A RunTask that answers from a table of handlers by name. */
export function fakeRunTask(
  handlers: Record<string, RunTask>,
): RunTask & { calls: { name: string; input: unknown; requestId: string }[] } {
  const calls: { name: string; input: unknown; requestId: string }[] = [];
  const run: RunTask = (name, input, ctx) => {
    calls.push({ name, input, requestId: ctx.requestId });
    const handler = handlers[name];
    if (handler === undefined) return Promise.reject(new Error(`unknown task: ${name}`));
    return handler(name, input, ctx);
  };
  return Object.assign(run, { calls });
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

export const LISTING: TaskListingEntry[] = [
  {
    name: 'demo/title',
    poolTag: 'default',
    transports: ['rest', 'sse'],
    timeoutMs: 60000,
    input: {
      url: { type: 'string', required: false, default: 'http://127.0.0.1/', doc: 'Page to open' },
      q: { type: 'string', required: true, doc: 'Query' },
    },
  },
];
