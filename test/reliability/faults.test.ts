/**
 * Fault injection against the real service (issue #7): each fault gets its documented
 * error, the service keeps serving, no window stays busy and no process outlives it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  browserPids,
  health,
  post,
  removeDir,
  serve,
  startPages,
  stopAndCountLeaks,
  waitAllFree,
  writeBundle,
  type Served,
} from './helpers/harness.ts';

const SESSION_RESET = 'browser session was reset (tab crashed or detached); re-run pool setup...';

const LIST = `task "list"
  input base string
  goto "{{base}}/list"
  wait until ".item" timeout 5000
  extract items from ".item" repeat
    title text "a"
  end
end
`;

describe('faults', { concurrency: false }, () => {
  let pages: Awaited<ReturnType<typeof startPages>>;
  let bundle: string;
  let svc: Served;

  before(async () => {
    pages = await startPages();
    bundle = writeBundle({
      'pool.yaml': 'pools:\n  default: { size: 2 }\n',
      'tasks/list.task': LIST,
      'tasks/crash.task': 'task "crash"\n  goto "chrome://crash"\nend\n',
      'tasks/slow.task':
        'task "slow"\n  timeout 30000\n  input base string\n  goto "{{base}}/slow?ms=6000"\n  wait until "#done" timeout 20000\nend\n',
      'tasks/sse-slow.task':
        'task "sse-slow"\n  transport sse\n  status "starting"\n  wait 20000\nend\n',
      'tasks/js-throws.task': 'task "js-throws"\n  js _ fn "throws"\nend\n',
      'tasks/js-syntax.task': 'task "js-syntax"\n  js _ fn "broken"\nend\n',
      'tasks/js-escape.task': 'task "js-escape"\n  js _ fn "../outside"\nend\n',
      'tasks/js-loop.task':
        'task "js-loop"\n  timeout 1500\n  js _ script "while (true) {}"\nend\n',
      'tasks/flip.task': 'task "flip"\n  return "A"\nend\n',
      'scripts/throws.js': "throw new Error('boom from module');\n",
      'scripts/broken.js': 'return (;\n',
      'outside.js': 'return 1;\n',
    });
    svc = await serve(bundle);
  });

  after(async () => {
    const leaks = await stopAndCountLeaks(svc);
    await pages.close();
    removeDir(bundle);
    assert.deepEqual(leaks, [], 'no process of the service tree survives its stop');
  });

  async function assertHealthy(): Promise<void> {
    await waitAllFree(svc.baseUrl);
    const run = await post(svc.baseUrl, 'list', { base: pages.base });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    assert.equal((run.body.data as { items: unknown[] }).items.length, 20);
    const h = await health(svc.baseUrl);
    assert.deepEqual(h.pools.default, { size: 2, free: 2, busy: 0 });
  }

  test('renderer crash mid-run: session-reset error, window replaced, pool intact', async () => {
    const run = await post(svc.baseUrl, 'crash');
    assert.equal(run.status, 500);
    assert.equal(run.body.error?.code, 'EXECUTION_FAILED');
    assert.ok(run.body.error?.message.startsWith(SESSION_RESET), run.body.error?.message);
    await assertHealthy();
  });

  test('browser kill -9 mid-run: the run fails, the browser is relaunched', async () => {
    const running = post(svc.baseUrl, 'slow', { base: pages.base });
    await new Promise((r) => setTimeout(r, 800));
    svc.sample();
    const pids = browserPids(svc.pid);
    assert.ok(pids.length > 0, 'found the Chromium browser process');
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const run = await running;
    assert.equal(run.status, 500);
    assert.equal(run.body.error?.code, 'EXECUTION_FAILED');
    assert.ok(run.body.error?.message.startsWith(SESSION_RESET), run.body.error?.message);
    // Relaunch happens in the background: poll until a run succeeds again.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const next = await post(svc.baseUrl, 'list', { base: pages.base });
      if (next.status === 200) break;
      assert.ok(Date.now() < deadline, `no recovery after kill -9: ${JSON.stringify(next.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    svc.sample();
    await assertHealthy();
  });

  test('client disconnect mid-SSE releases the window long before the step would end', async () => {
    const controller = new AbortController();
    const res = await fetch(`${svc.baseUrl}/tasks/sse-slow`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
    });
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: status')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    assert.match(text, /event: status/);
    const busy = await health(svc.baseUrl);
    assert.equal(busy.pools.default?.busy, 1, 'the SSE run holds a window');
    controller.abort();
    // The run waits 20 s; released within 8 s means it was cancelled.
    await waitAllFree(svc.baseUrl, 8000);
    await assertHealthy();
  });

  test('js module that throws, does not parse, or escapes scripts/: clear error, window usable', async () => {
    const throws = await post(svc.baseUrl, 'js-throws');
    assert.equal(throws.status, 500);
    assert.match(throws.body.error!.message, /throws/);
    assert.match(throws.body.error!.message, /boom from module/);
    const syntax = await post(svc.baseUrl, 'js-syntax');
    assert.equal(syntax.status, 500);
    assert.match(syntax.body.error!.message, /broken/);
    const escape = await post(svc.baseUrl, 'js-escape');
    assert.equal(escape.status, 500);
    assert.match(escape.body.error!.message, /scripts/);
    await assertHealthy();
  });

  test('js that loops past the deadline: deadline error, window recovered', async () => {
    const run = await post(svc.baseUrl, 'js-loop');
    assert.equal(run.status, 500);
    assert.match(run.body.error!.message, /^step ".+": context deadline exceeded$/);
    await assertHealthy();
  });

  test('recipe made invalid while served: its run names file:line:col, others keep working', async () => {
    const file = join(bundle, 'tasks', 'flip.task');
    const before = await health(svc.baseUrl);
    writeFileSync(file, 'task "flip"\n  clik "#x"\nend\n');
    const run = await post(svc.baseUrl, 'flip');
    assert.equal(run.status, 500);
    assert.equal(run.body.error?.code, 'EXECUTION_FAILED');
    assert.match(run.body.error.message, /flip\.task:2:\d+: /);
    const listing = (await (await fetch(`${svc.baseUrl}/tasks`)).json()) as { name: string }[];
    assert.ok(!listing.some((t) => t.name === 'flip'));
    assert.ok(listing.some((t) => t.name === 'list'));
    assert.equal((await health(svc.baseUrl)).taskCount, before.taskCount - 1);
    writeFileSync(file, 'task "flip"\n  return "A"\nend\n');
    const fixed = await post(svc.baseUrl, 'flip');
    assert.equal(fixed.status, 200);
    assert.equal(fixed.body.data, 'A');
  });

  test('bundle file rewritten during requests: every answer is the old or the new version', async () => {
    const file = join(bundle, 'tasks', 'flip.task');
    const seen = new Set<unknown>();
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const tmp = `${file}.tmp`;
        writeFileSync(tmp, `task "flip"\n  return "${i % 2 === 0 ? 'B' : 'A'}"\nend\n`);
        renameSync(tmp, file);
        // A plain overwrite too: readers may see a half-written file for an instant.
        writeFileSync(file, `task "flip"\n  return "${i % 2 === 0 ? 'A' : 'B'}"\nend\n`);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    for (let i = 0; i < 40; i++) {
      const run = await post(svc.baseUrl, 'flip');
      if (run.status === 200) seen.add(run.body.data);
      else assert.equal(run.body.error?.code, 'EXECUTION_FAILED');
    }
    writing = false;
    await writer;
    assert.ok(
      [...seen].every((v) => v === 'A' || v === 'B'),
      JSON.stringify([...seen]),
    );
    assert.ok(seen.size >= 1);
    await assertHealthy();
  });
});
