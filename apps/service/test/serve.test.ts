/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- assertions walk parsed JSON responses */
// `browsertask serve` end to end: real CLI process, real Chromium, real HTTP, against a
// temp copy of bundle-example (so hot reload can edit it). One server for the file.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { logLines, repoRoot, runCli, serve, type Served } from './helpers/cli.js';

const exec = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'browsertask-serve-'));
const bundle = join(tmp, 'bundle');
const downloads = join(tmp, 'downloads');
cpSync(join(repoRoot, 'bundle-example'), bundle, { recursive: true });
let svc: Served;

before(async () => {
  svc = await serve({
    SERVICE_BUNDLE: bundle,
    SERVICE_DOWNLOADS_DIR: downloads,
    DEMO_SITE_DIR: join(repoRoot, 'examples', 'demo-site', 'public'),
    DEMO_ACCESS_CODE: 'open-sesame',
  });
});
after(async () => {
  const code = await svc?.stop();
  rmSync(tmp, { recursive: true, force: true });
  assert.equal(code, 0, 'graceful shutdown exits 0');
});

async function post(slug: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.baseUrl}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { res, json: await res.json() };
}

async function sse(slug: string, body: unknown = {}) {
  const res = await fetch(`${svc.baseUrl}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const text = await res.text();
  parser.feed(text);
  return { res, events, text };
}

describe('serve: start-up', () => {
  it('logs the bundle kind, then the address', () => {
    const msgs = logLines(svc.stderr()).map((l) => l.msg);
    const opened = msgs.indexOf('opened directory bundle');
    assert.ok(opened >= 0);
    assert.ok(msgs.indexOf('listening') > opened);
    assert.ok(msgs.indexOf('pools ready') < msgs.indexOf('listening'));
  });

  it('never logs the sensitive secret value', () => {
    assert.doesNotMatch(svc.stderr(), /open-sesame/);
    assert.match(svc.stderr(), /DEMO_ACCESS_CODE from env/);
  });
});

describe('serve: health and listing', () => {
  it('GET /health counts tasks and windows', async () => {
    const res = await fetch(`${svc.baseUrl}/health`);
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('x-request-id'));
    const body = await res.json();
    assert.equal(body.ok, true);
    assert.equal(body.taskCount, 9);
    assert.deepEqual(body.pools.default, { size: 2, free: 2, busy: 0 });
  });

  it('GET /tasks lists every task with its input schema', async () => {
    const list = (await (await fetch(`${svc.baseUrl}/tasks`)).json()) as any[];
    const page = list.find((t) => t.name === 'quotes/page');
    assert.deepEqual(page, {
      name: 'quotes/page',
      poolTag: 'default',
      transports: ['rest', 'sse'],
      timeoutMs: 20000,
      input: {
        page: { type: 'string', required: false, default: '1', doc: 'Page number, 1 to 3' },
      },
    });
  });
});

describe('serve: runs', () => {
  it('runs a sync task: extract with inputs', async () => {
    const { res, json } = await post('quotes/page', { page: '3' });
    assert.equal(res.status, 200);
    assert.equal(json.ok, true);
    assert.equal(json.data.quotes.length, 10);
    assert.equal(typeof json.data.quotes[0].author, 'string');
  });

  it('fills a form with a secret and never returns the secret', async () => {
    const { json } = await post('contact/submit', { name: 'Grace' });
    assert.equal(json.ok, true, JSON.stringify(json));
    assert.equal(json.data.name, 'Grace');
    assert.equal(json.data.access, 'granted');
  });

  it('runs a js module step', async () => {
    const { json } = await post('quotes/stats', { page: 1 });
    assert.equal(json.ok, true, JSON.stringify(json));
    assert.equal(json.data.total, 10);
  });

  it('streams status and progress events, then done with the sync data', async () => {
    const { res, events } = await sse('demo/progress');
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'text/event-stream');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    const kinds = events.map((e) => e.event);
    assert.equal(kinds[0], 'status');
    assert.equal(kinds.filter((k) => k === 'progress').length, 3);
    assert.equal(kinds.at(-1), 'done');
    assert.equal(kinds.filter((k) => k === 'done' || k === 'error').length, 1);
    const done = JSON.parse(events.at(-1)!.data);
    assert.equal(done.ok, true);
    assert.equal(done.data.answer.value, '42');
    const progress = JSON.parse(events[1]!.data);
    assert.deepEqual(Object.keys(progress).sort(), ['data', 'text']);
  });

  it('gives sync callers none of the events', async () => {
    const { json } = await post('demo/progress');
    assert.deepEqual(Object.keys(json), ['ok', 'data']);
    assert.equal(json.data.answer.value, '42');
  });

  it('records a GIF: recording event, file served by the /files mount', async () => {
    const { events } = await sse('demo/record-counter');
    const terminal = events.at(-1)!;
    assert.equal(terminal.event, 'done', terminal.data);
    const listing = await (await fetch(`${svc.baseUrl}/files`)).json();
    const gif = listing.entries.find((e: any) => e.name.endsWith('counter.gif'));
    assert.ok(gif, JSON.stringify(listing));
    const file = await fetch(`${svc.baseUrl}${gif.url}`);
    assert.equal(file.status, 200);
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.subarray(0, 3).toString('latin1'), 'GIF');
  });

  it('fails with the spec codes', async () => {
    const unknown = await post('no/such/task', {});
    assert.equal(unknown.res.status, 500);
    assert.deepEqual(unknown.json.error, {
      code: 'EXECUTION_FAILED',
      message: 'unknown task: no/such/task',
    });
    const bad = await post('demo/title', '{nope');
    assert.equal(bad.res.status, 400);
    assert.equal(bad.json.error.code, 'BAD_BODY');
    const sseUnknown = await sse('no/such/task');
    assert.equal(sseUnknown.events.at(-1)?.event, 'error');
    assert.deepEqual(JSON.parse(sseUnknown.events.at(-1)!.data), {
      message: 'unknown task: no/such/task',
    });
  });
});

describe('serve: static mounts', () => {
  it('lists and serves the demo site, 403 on escapes, 404 on missing files', async () => {
    const listing = await (await fetch(`${svc.baseUrl}/demo`)).json();
    assert.equal(listing.ok, true);
    assert.equal(listing.mount, '/demo');
    assert.ok(listing.entries.some((e: any) => e.name === 'quotes/page-1.html'));
    const page = await fetch(`${svc.baseUrl}/demo/quotes/page-1.html`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /class="quote"/);
    // node:http sends the path as written (fetch would normalise the dot segments away).
    for (const path of ['/demo/../README.md', '/demo/..%2fpackage.json']) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const { hostname, port } = new URL(svc.baseUrl);
        const req = request({ hostname, port, path }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 403, path);
    }
    const missing = await fetch(`${svc.baseUrl}/demo/nope.html`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.code, 'NOT_FOUND');
  });
});

describe('serve: hot reload', () => {
  it('picks up an added, edited and deleted task without a restart', async () => {
    const file = join(bundle, 'tasks', 'hot.task');
    writeFileSync(file, 'task "hot"\n  set v "one"\n  return "{{v}}"\nend\n');
    assert.equal((await post('hot')).json.data, 'one');
    assert.equal((await (await fetch(`${svc.baseUrl}/health`)).json()).taskCount, 10);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"one"', '"two"'));
    assert.equal((await post('hot')).json.data, 'two');
    unlinkSync(file);
    const gone = await post('hot');
    assert.equal(gone.json.error.message, 'unknown task: hot');
    const list = (await (await fetch(`${svc.baseUrl}/tasks`)).json()) as any[];
    assert.equal(
      list.some((t) => t.name === 'hot'),
      false,
    );
  });
});

describe('README quick starts (root and bundle-example)', () => {
  it('runs every curl command of the quick start as written', async () => {
    const readmes = ['README.md', join('bundle-example', 'README.md')].map((f) =>
      readFileSync(join(repoRoot, f), 'utf8'),
    );
    const commands = [
      ...new Set(readmes.flatMap((r) => r.split('\n').filter((l) => l.startsWith('curl ')))),
    ].map((l) => l.replaceAll('http://127.0.0.1:8765', svc.baseUrl));
    assert.ok(commands.length >= 5);
    const cwd = mkdtempSync(join(tmp, 'readme-'));
    for (const cmd of commands) {
      const { stdout } = await exec('sh', ['-c', cmd], { cwd, encoding: 'utf8' });
      const out = / -o (\S+)/.exec(cmd)?.[1];
      if (out !== undefined) {
        assert.equal(readFileSync(join(cwd, out)).subarray(0, 3).toString('latin1'), 'GIF', cmd);
      } else if (cmd.includes('text/event-stream')) {
        assert.match(stdout, /^event: done$/m, cmd);
      } else if (cmd.endsWith('/tasks')) {
        assert.ok(Array.isArray(JSON.parse(stdout)), cmd);
      } else {
        assert.equal(JSON.parse(stdout).ok, true, `${cmd}\n${stdout}`);
      }
    }
  });
});

describe('browsertask run', () => {
  it('runs one task without the HTTP API: events on stderr, envelope on stdout', async () => {
    const ok = await runCli(['run', 'demo/progress', '--bundle', bundle], {
      env: { DEMO_SITE_DIR: join(repoRoot, 'examples', 'demo-site', 'public') },
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /^event: status /m);
    assert.match(ok.stderr, /^event: progress /m);
    const envelope = JSON.parse(ok.stdout);
    assert.equal(envelope.ok, true);
    assert.equal(envelope.data.answer.value, '42');
  });

  it('takes --input and --json, and exits 1 with a failure envelope', async () => {
    // --input overrides the same key of --json.
    const r = await runCli(
      ['run', 'quotes/page', '--bundle', bundle, '--json', '{"page":"1"}', '--input', 'page=3'],
      { env: { DEMO_SITE_DIR: join(repoRoot, 'examples', 'demo-site', 'public') } },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).data.quotes[0].text, 'Simplicity outlasts every deadline.');
    const missing = await runCli(['run', 'no/such', '--bundle', bundle]);
    assert.equal(missing.code, 1);
    assert.deepEqual(JSON.parse(missing.stdout), {
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: 'unknown task: no/such' },
    });
  });
});

describe('serve: sensitive secrets never leave the service', () => {
  it('masks a sensitive value a recipe returns or emits, in the response and in events', async () => {
    const file = join(bundle, 'tasks', 'leak.task');
    writeFileSync(
      file,
      'task "demo/leak"\n  transport sse\n  emit progress "code {{DEMO_ACCESS_CODE}}" data { code: "{{DEMO_ACCESS_CODE}}" }\n  return "code={{DEMO_ACCESS_CODE}}"\nend\n',
    );
    try {
      const sync = await post('demo/leak', {});
      assert.equal(sync.res.status, 200);
      assert.equal(sync.json.data, 'code=[REDACTED]');
      const stream = await sse('demo/leak');
      assert.doesNotMatch(stream.text, /open-sesame/);
      const progress = stream.events.find((e) => e.event === 'progress');
      assert.deepEqual(JSON.parse(progress!.data), {
        text: 'code [REDACTED]',
        data: { code: '[REDACTED]' },
      });
    } finally {
      unlinkSync(file);
    }
  });
});
