// The run engine end to end: registry over a real bundle (bundle-fs + recipe-parser),
// real WindowPools (one browser for the file), real pages on a local site.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBundle, type Bundle } from '@browsertask/bundle-fs';
import { loadTask } from '@browsertask/recipe-parser';
import { WindowPools } from '@browsertask/window-pool';
import {
  CollectingPublisher,
  Runner,
  createTaskRegistry,
  type RunOutcome,
  type TaskRegistry,
  type WindowSource,
} from '../src/index.js';
import type { Page } from 'playwright';
import { startSite, type Site } from './helpers/site.js';

const TASKS: Record<string, string> = {
  'tasks/t/list.task': `task "t/list"
  timeout 20000
  transport rest
  transport sse
  input base string required doc "site"
  input limit int default 3
  goto "{{base}}/"
  wait until ".item" timeout 5000
  extract items from ".item" repeat
    name text ".name"
    price text ".price" int
  end
  js count script "return arguments[0] * 2;" args ["{{limit}}"]
end
`,
  'tasks/t/quiet.task': `task "t/quiet"
  input base string required
  goto "{{base}}/"
  extract page from "h1"
    title text "."
  end
  return "{{page}}"
end
`,
  'tasks/t/loud.task': `task "t/loud"
  input base string required
  status "loading"
  goto "{{base}}/"
  emit progress "half" data { fraction: 0.5 }
  emit "plain status"
  extract page from "h1"
    title text "."
  end
  return "{{page}}"
end
`,
  'tasks/t/setup.task': `task "t/setup"
  input base string required
  goto "{{base}}/form"
  sendkeys "#q" keys "from setup"
end
`,
  'tasks/t/with-setup.task': `task "t/with-setup"
  setup "t/setup"
  input base string required
  js v script "return document.getElementById('q').value;"
end
`,
  'tasks/t/cycle-a.task': `task "t/cycle-a"
  setup "t/cycle-b"
  return "a"
end
`,
  'tasks/t/cycle-b.task': `task "t/cycle-b"
  setup "t/cycle-a"
  return "b"
end
`,
  'tasks/t/call-self.task': `task "t/call-self"
  call "t/call-self"
end
`,
  'tasks/t/bad-setup.task': `task "t/bad-setup"
  setup "t/missing"
  js v script "return 1;"
end
`,
  'tasks/t/hang.task': `task "t/hang"
  timeout 1500
  input base string required
  goto "{{base}}/hang"
  js _ script "for (;;) {}"
end
`,
  'tasks/t/slow.task': `task "t/slow"
  timeout 400
  wait 5000
end
`,
  'tasks/t/crash.task': `task "t/crash"
  input base string required
  goto "{{base}}/"
  wait until ".never" timeout 10000
end
`,
  'tasks/t/title.task': `task "t/title"
  input base string required
  goto "{{base}}/anim" record
  js t script "return document.title;"
end
`,
  'tasks/t/broken.task': `task "t/broken"
  goto
  frobnicate "x"
end
`,
  'tasks/t/yaml.yaml': `name: t/yaml
poolTag: default
transports: [rest]
timeoutMs: 5000
input:
  who: { type: string, required: false, default: "world" }
flow:
  - run: set
    params: { name: greeting, value: "hello {{who}}" }
`,
  'tasks/pool.yaml': 'pools:\n  default: { size: 1 }\n',
};

let root: string;
let site: Site;
let bundle: Bundle;
let pools: WindowPools;
let registry: TaskRegistry;
let runner: Runner;
let parses = 0;
let reads = 0;

async function writeBundleFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, 'bundle', path)), { recursive: true });
  await writeFile(join(root, 'bundle', path), text);
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'runner-e2e-'));
  for (const [path, text] of Object.entries(TASKS)) await writeBundleFile(path, text);
  site = await startSite();
  bundle = await openBundle(join(root, 'bundle'));
  pools = new WindowPools({
    pools: { default: { size: 1 } },
    executablePath: process.env.SERVICE_BROWSER ?? '/usr/bin/chromium',
    headless: true,
    downloadsDir: join(root, 'downloads'),
    acquireTimeoutMs: 500,
    scratchDir: root,
  });
  await pools.start();
  // Counts file reads: the registry must re-read only files whose fingerprint changed.
  const counted = bundle;
  const reader = {
    list: (glob?: string) => counted.list(glob),
    readText: (p: string) => {
      reads += 1;
      return counted.readText(p);
    },
    readFile: (p: string) => counted.readFile(p),
    stat: (p: string) => counted.stat(p),
    version: () => counted.version(),
  };
  registry = createTaskRegistry(reader, {
    loadTask: (text, file) => {
      parses += 1;
      return loadTask(text, file);
    },
  });
  runner = new Runner({
    registry,
    pools,
    bundle,
    downloadsRoot: join(root, 'downloads'),
    recordingsDir: join(root, 'recordings'),
    env: { UNUSED: 'x' },
  });
});

after(async () => {
  await pools?.close();
  await bundle?.close();
  await site?.close();
  await rm(root, { recursive: true, force: true });
});

function fail(outcome: RunOutcome): { code: string; message: string } {
  assert.equal(outcome.ok, false, JSON.stringify(outcome));
  return outcome.error;
}

describe('task registry', () => {
  it('lists valid tasks (recipes and YAML), counts them and reports broken ones', async () => {
    const names = (await registry.list()).map((t) => t.name);
    assert.deepEqual(names, [
      't/bad-setup',
      't/call-self',
      't/crash',
      't/cycle-a',
      't/cycle-b',
      't/hang',
      't/list',
      't/loud',
      't/quiet',
      't/setup',
      't/slow',
      't/title',
      't/with-setup',
      't/yaml',
    ]);
    assert.equal(await registry.count(), 14);
    const list = (await registry.list()).find((t) => t.name === 't/list');
    assert.deepEqual(list, {
      name: 't/list',
      poolTag: 'default',
      transports: ['rest', 'sse'],
      timeoutMs: 20000,
      input: {
        base: { type: 'string', required: true, doc: 'site' },
        limit: { type: 'int', required: false, default: 3 },
      },
    });
    assert.equal((await registry.list()).find((t) => t.name === 't/quiet')?.timeoutMs, 60000);
    const problems = await registry.problems();
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.file, 'tasks/t/broken.task');
  });

  it('a broken recipe fails with its file:line:col message; the others still run', async () => {
    const broken = fail(await runner.run('t/broken', {}));
    assert.equal(broken.code, 'ERR_RUNNER_INVALID_RECIPE');
    assert.match(broken.message, /^tasks\/t\/broken\.task:\d+:\d+: .+/);
    const yaml = await runner.run('t/yaml', { who: 'you' });
    assert.deepEqual(yaml.ok && yaml.data, { greeting: 'hello you' });
  });

  it('re-reads only when the bundle version changes and never serves a stale task', async () => {
    await registry.count();
    const before = parses;
    await registry.count();
    await registry.get('t/yaml');
    assert.equal(parses, before, 'an unchanged bundle is not re-parsed');
    await writeBundleFile(
      'tasks/t/yaml.yaml',
      TASKS['tasks/t/yaml.yaml']!.replace('hello', 'bonjour'),
    );
    const changed = await runner.run('t/yaml', {});
    assert.deepEqual(changed.ok && changed.data, { greeting: 'bonjour world' });
    assert.equal(parses, before + 1, 'only the changed file is re-parsed');
    const readsBefore = reads;
    await writeBundleFile('tasks/t/yaml.yaml', TASKS['tasks/t/yaml.yaml']!);
    assert.equal((await registry.count()) > 0, true);
    assert.equal(reads, readsBefore + 1, 'only the changed file is read again');
    await writeBundleFile('tasks/t/new.task', 'task "t/new"\n  set x "1"\nend\n');
    assert.equal(await registry.count(), 15);
    await rm(join(root, 'bundle', 'tasks/t/new.task'));
    assert.equal(await registry.count(), 14);
    assert.equal(fail(await runner.run('t/new', {})).message, 'unknown task: t/new');
  });
});

describe('runs', () => {
  it('runs the stages and accumulates every bound result in data', async () => {
    const outcome = await runner.run('t/list', { base: site.url, limit: '4' });
    assert.equal(outcome.ok, true);
    const data = (outcome as { data: { items: { name: string; price: number }[]; count: number } })
      .data;
    assert.deepEqual(Object.keys(data), ['items', 'count']);
    assert.equal(data.items.length, 20);
    assert.deepEqual(data.items[0], { name: 'Item 0', price: 1000 });
    assert.equal(data.count, 8);
  });

  it('fails with the spec messages: unknown task, missing inputs, wrong type', async () => {
    assert.deepEqual(fail(await runner.run('nope/x', {})), {
      code: 'ERR_RUNNER_UNKNOWN_TASK',
      message: 'unknown task: nope/x',
    });
    assert.deepEqual(fail(await runner.run('t/list', {})), {
      code: 'ERR_RUNNER_MISSING_INPUT',
      message: 'missing required input(s): base',
    });
    assert.deepEqual(fail(await runner.run('t/list', { base: site.url, limit: 'lots' })), {
      code: 'ERR_RUNNER_INVALID_INPUT',
      message: 'input "limit": expected int, got "lots"',
    });
  });

  it('status and emit reach SSE callers and never change the synchronous result', async () => {
    const quiet = await runner.run('t/quiet', { base: site.url });
    const loudSync = await runner.run('t/loud', { base: site.url });
    assert.equal(
      JSON.stringify(loudSync.ok && loudSync.data),
      JSON.stringify(quiet.ok && quiet.data),
    );
    assert.equal(JSON.stringify(quiet.ok && quiet.data), '{"title":"Hello"}');
    const events = new CollectingPublisher();
    const loud = await runner.run('t/loud', { base: site.url }, { publisher: events });
    assert.equal(JSON.stringify(loud.ok && loud.data), JSON.stringify(quiet.ok && quiet.data));
    assert.deepEqual(events.events, [
      { kind: 'status', text: 'loading', data: null },
      { kind: 'progress', text: 'half', data: { fraction: 0.5 } },
      { kind: 'status', text: 'plain status', data: null },
    ]);
    assert.deepEqual(events.terminal, {
      kind: 'done',
      payload: { ok: true, data: { title: 'Hello' } },
    });
  });

  it('refuses setup cycles before leasing and call cycles at the call', async () => {
    const setup = fail(await runner.run('t/cycle-a', {}));
    assert.equal(setup.code, 'ERR_RUNNER_RECURSION');
    assert.match(setup.message, /^setup cycle: t\/cycle-a → t\/cycle-b → t\/cycle-a;/);
    const call = fail(await runner.run('t/call-self', {}));
    assert.equal(call.code, 'ERR_RUNNER_RECURSION');
    assert.match(call.message, /^step "call": call cycle: t\/call-self → t\/call-self /);
  });

  it('runs the setup task first in the same window; a failing setup fails the run', async () => {
    const events = new CollectingPublisher();
    const outcome = await runner.run('t/with-setup', { base: site.url }, { publisher: events });
    assert.deepEqual(outcome.ok && outcome.data, { v: 'from setup' });
    assert.deepEqual(events.events[0], {
      kind: 'status',
      text: 'Running setup: t/setup',
      data: null,
    });
    const bad = new CollectingPublisher();
    assert.equal(
      fail(await runner.run('t/bad-setup', {}, { publisher: bad })).message,
      'unknown task: t/missing',
    );
    assert.deepEqual(bad.terminal, {
      kind: 'error',
      payload: { message: 'unknown task: t/missing' },
    });
  });

  it('a step past the deadline fails; a hung page is replaced and the pool stays usable', async () => {
    assert.deepEqual(fail(await runner.run('t/slow', {})), {
      code: 'ERR_RUNNER_DEADLINE',
      message: 'step "wait": context deadline exceeded',
    });
    assert.deepEqual(fail(await runner.run('t/hang', { base: site.url })), {
      code: 'ERR_RUNNER_DEADLINE',
      message: 'step "js": context deadline exceeded',
    });
    const next = await runner.run('t/quiet', { base: site.url });
    assert.deepEqual(next.ok && next.data, { title: 'Hello' });
    assert.deepEqual(pools.stats().default, { size: 1, free: 1, busy: 0 });
  });

  it('an aborted run stops at once and releases the window', async () => {
    const ac = new AbortController();
    const pending = runner.run('t/slow', {}, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    assert.equal(fail(await pending).code, 'ERR_RUNNER_ABORTED');
    assert.deepEqual(pools.stats().default, { size: 1, free: 1, busy: 0 });
  });

  it('a crashed tab fails with the session-reset message and the window is replaced', async () => {
    // The same real pools, seen through a WindowSource that remembers the leased page.
    let leased: Page | undefined;
    const source: WindowSource = {
      acquire: async (tag, options) => {
        const lease = await pools.acquire(tag, options);
        leased = lease.window.page;
        return lease;
      },
    };
    const crashRunner = new Runner({
      registry,
      pools: source,
      downloadsRoot: join(root, 'downloads'),
      recordingsDir: join(root, 'recordings'),
    });
    const pending = crashRunner.run('t/crash', { base: site.url });
    while (leased === undefined || !leased.url().startsWith(site.url))
      await new Promise((r) => setTimeout(r, 20));
    // Crash the document the step is waiting in: after its load, so the command cannot land
    // in a renderer that navigation is swapping out; confirmed by the page's crash event.
    const page: Page = leased;
    await page.waitForLoadState('load').catch(() => undefined);
    const crashEvent = new Promise<boolean>((resolve) => page.once('crash', () => resolve(true)));
    const cdp = await page.context().newCDPSession(page);
    for (let attempt = 0; attempt < 3; attempt++) {
      void cdp.send('Page.crash').catch(() => undefined); // never resolves (platform-notes)
      const sleep = new Promise<boolean>((r) => setTimeout(() => r(false), 2000));
      if (await Promise.race([crashEvent, sleep])) break;
    }
    const crashed = fail(await pending);
    assert.equal(crashed.code, 'ERR_RUNNER_SESSION_RESET', crashed.message);
    assert.equal(
      crashed.message,
      'browser session was reset (tab crashed or detached); re-run pool setup...',
    );
    const next = await runner.run('t/quiet', { base: site.url });
    assert.deepEqual(next.ok && next.data, { title: 'Hello' });
  });

  it('acquire timeout: <tag> when every window stays busy', async () => {
    const held = await pools.acquire('default');
    try {
      assert.deepEqual(fail(await runner.run('t/quiet', { base: site.url })), {
        code: 'ERR_RUNNER_ACQUIRE_TIMEOUT',
        message: 'acquire timeout: default',
      });
    } finally {
      await held.release();
    }
  });

  it('step record: a GIF under <recordings>/<task>/<run-id>/ and a recording event', async () => {
    const events = new CollectingPublisher();
    const outcome = await runner.run(
      't/title',
      { base: site.url },
      { publisher: events, runId: 'r42' },
    );
    assert.deepEqual(outcome.ok && outcome.data, { t: 'Anim' });
    const rec = events.events.find((e) => e.kind === 'recording');
    const data = rec?.data as { path: string; step: string; ok: boolean };
    assert.equal(dirname(data.path), join(root, 'recordings', 't', 'title', 'r42'));
    assert.deepEqual({ step: data.step, ok: data.ok }, { step: 'goto', ok: true });
    assert.equal((await readFile(data.path)).subarray(0, 3).toString(), 'GIF');
  });
});
