// Every action end to end in real Chromium against a local page, through executeFlow.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright';
import { openBundle, type Bundle } from '@browsertask/bundle-fs';
import type { TaskDef } from '@browsertask/recipe-parser';
import { executeFlow, type RunnerError } from '../src/index.js';
import { launchBrowser } from './helpers/browser.js';
import {
  makeContext,
  openWindow,
  step,
  type MakeContextOptions,
  type Window,
} from './helpers/context.js';
import { startSite, type Site } from './helpers/site.js';

let browser: Browser;
let site: Site;
let win: Window;
let bundleDir: string;
let bundle: Bundle;

before(async () => {
  [browser, site] = await Promise.all([launchBrowser(), startSite()]);
  win = await openWindow(browser);
  bundleDir = await mkdtemp(join(tmpdir(), 'runner-bundle-'));
  await mkdir(join(bundleDir, 'scripts', 'demo'), { recursive: true });
  await mkdir(join(bundleDir, 'tasks'), { recursive: true });
  await writeFile(
    join(bundleDir, 'scripts', 'demo', 'sum.js'),
    'return arguments[0] + arguments[1];',
  );
  await writeFile(
    join(bundleDir, 'scripts', 'demo', 'later.js'),
    'return new Promise((r) => setTimeout(() => r(arguments[0] * 2), 20));',
  );
  await writeFile(
    join(bundleDir, 'scripts', 'demo', 'throws.js'),
    "throw new Error('module boom');",
  );
  await writeFile(join(bundleDir, 'scripts', 'demo', 'syntax.js'), 'return (;');
  await writeFile(
    join(bundleDir, 'scripts', 'done.js'),
    'return (window.__n = (window.__n || 0) + 1) >= 3;',
  );
  await writeFile(join(bundleDir, 'tasks', 'notes.txt'), 'from the bundle');
  bundle = await openBundle(bundleDir);
});

after(async () => {
  await bundle?.close();
  await win?.close();
  await browser?.close();
  await site?.close();
  await rm(bundleDir, { recursive: true, force: true });
});

function run(flow: Parameters<typeof executeFlow>[0], options: MakeContextOptions = {}) {
  const made = makeContext(win, { bundle, ...options });
  return { ...made, done: executeFlow(flow, made.ctx) };
}

describe('navigation and interaction', () => {
  it('goto, wait until, wait, extract (repeat and single, transforms, const)', async () => {
    const { ctx, done } = run(
      [
        step('goto', { url: `${site.url}/late` }, { as: 'nav' }),
        step('wait-for', { selector: '.ready', timeoutMs: '5_000' }),
        step('wait', { duration: '10' }),
        step('goto', { url: '{{base}}/' }),
        step(
          'extract',
          {
            selector: '.item',
            repeat: true,
            fields: {
              name: { kind: 'text', selector: '.name' },
              href: { kind: 'attr', selector: 'a', name: 'href' },
              sku: { kind: 'attr', selector: '.', name: 'data-sku' },
              price: { kind: 'text', selector: '.price', transform: 'int' },
              tags: { kind: 'html', selector: '.tags' },
              source: { kind: 'const', value: 'test' },
              up: { kind: 'text', selector: '.name', transform: 'upper' },
            },
          },
          { as: 'items' },
        ),
        step('extract', { selector: 'h1', fields: { title: { kind: 'text' } } }, { as: 'page' }),
      ],
      { bindings: { base: site.url } },
    );
    await done;
    assert.deepEqual(ctx.data.nav, { url: `${site.url}/late`, status: 200 });
    const items = ctx.data.items as Record<string, unknown>[];
    assert.equal(items.length, 20);
    assert.deepEqual(items[3], {
      name: 'Item 3',
      href: '/p/3',
      sku: 'sku-3',
      price: 1003,
      tags: '<i>t3</i>',
      source: 'test',
      up: 'ITEM 3',
    });
    assert.deepEqual(ctx.data.page, { title: 'Hello' });
  });

  it('wait until fails with its own timeout message', async () => {
    const { done } = run([
      step('goto', { url: `${site.url}/` }),
      step('wait-for', { selector: '.never', timeoutMs: 200 }),
    ]);
    await assert.rejects(
      done,
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_STEP_FAILED' &&
        err.message === 'step "wait-for": timeout after 200 ms waiting for ".never"',
    );
  });

  it('a step past the task deadline fails with context deadline exceeded', async () => {
    const { done } = run(
      [
        step('goto', { url: `${site.url}/` }),
        step('wait-for', { selector: '.never', timeoutMs: 10000 }),
      ],
      { timeoutMs: 600 },
    );
    await assert.rejects(done, {
      code: 'ERR_RUNNER_DEADLINE',
      message: 'step "wait-for": context deadline exceeded',
    });
  });

  it('sendkeys types and click is trusted, by selector and by text with closest', async () => {
    const { ctx, done } = run(
      [
        step('goto', { url: `${site.url}/form` }),
        step('sendkeys', { selector: '#q', keys: '{{word}}' }),
        step('action', { selector: '#go' }),
        step('action', {
          selector: '.name',
          text: 'Nicholas Huang',
          match: 'exact',
          closest: '.row',
        }),
        step(
          'extract',
          {
            selector: 'body',
            fields: {
              out: { kind: 'text', selector: '#out' },
              row: { kind: 'text', selector: '#row' },
            },
          },
          { as: 'r' },
        ),
        step('action', { selector: '.name', text: 'Huang', match: 'contains' }),
      ],
      { bindings: { word: 'kittens' } },
    );
    await done;
    assert.deepEqual(ctx.data.r, { out: 'trusted:kittens', row: 'row 2 trusted' });
    const miss = run([step('action', { selector: '.name', text: 'Nobody' })]);
    await assert.rejects(miss.done, {
      code: 'ERR_RUNNER_STEP_FAILED',
      message: 'step "action": no ".name" element with text "Nobody"',
    });
  });

  it('scroll until stable loads history until the height settles', async () => {
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/scroll` }),
      step(
        'scroll-until-stable',
        { selector: '#box', direction: 'up', stableMs: 300 },
        { as: 's' },
      ),
    ]);
    await done;
    const s = ctx.data.s as { scrollHeight: number; iterations: number };
    assert.equal(s.scrollHeight, (10 + 15) * 40);
  });

  it('wait-network-idle returns once requests settle', async () => {
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/network` }),
      step('wait-for-network-idle', { idleMs: 100, timeoutMs: 5000 }, { as: 'idle' }),
    ]);
    await done;
    assert.deepEqual(ctx.data.idle, { inflight: 0 });
  });
});

describe('js', () => {
  it('runs modules (with .js optional) and inline scripts with args; awaits when asked', async () => {
    const { ctx, done } = run(
      [
        step('goto', { url: `${site.url}/` }),
        step('js', { fn: 'demo/sum', args: ['{{a}}', 5] }, { as: 'sum' }),
        step('js', { fn: 'demo/later.js', args: [21], await: true }, { as: 'later' }),
        step(
          'js',
          { script: "return document.querySelectorAll('.item').length;" },
          { as: 'count' },
        ),
        step('js', { script: 'return 1;' }, { as: '_' }),
      ],
      { bindings: { a: 2 } },
    );
    await done;
    assert.equal(ctx.data.sum, 7);
    assert.equal(ctx.data.later, 42);
    assert.equal(ctx.data.count, 20);
    assert.equal('_' in ctx.data, false);
  });

  it('a module that throws, has a syntax error or escapes scripts/ fails clearly; the window stays usable', async () => {
    const throws = run([step('js', { fn: 'demo/throws' })]);
    await assert.rejects(
      throws.done,
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_SCRIPT' &&
        err.message.startsWith('step "js": js module "scripts/demo/throws.js": Error: module boom'),
    );
    const syntax = run([step('js', { fn: 'demo/syntax' })]);
    await assert.rejects(
      syntax.done,
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_SCRIPT' &&
        err.message.startsWith('step "js": js module "scripts/demo/syntax.js": SyntaxError'),
    );
    const escape = run([step('js', { fn: '../tasks/notes.txt' })]);
    await assert.rejects(escape.done, {
      code: 'ERR_RUNNER_SCRIPT',
      message: 'step "js": js module "../tasks/notes.txt" escapes scripts/',
    });
    const missing = run([step('js', { fn: 'nope' })]);
    await assert.rejects(missing.done, {
      code: 'ERR_RUNNER_SCRIPT',
      message: 'step "js": js module "scripts/nope.js" not found in the bundle',
    });
    const ok = run([step('js', { script: 'return document.title;' }, { as: 't' })]);
    await ok.done;
    assert.equal(ok.ctx.data.t, 'Home');
  });
});

describe('rendering and capture', () => {
  it('screenshot: inline base64, file only, both, element and jpeg; neither fails', async () => {
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/` }),
      step('screenshot', {}, { as: 'inline' }),
      step('screenshot', { path: 'shots/a.png' }),
      step(
        'screenshot',
        { path: 'shots/b.jpeg', format: 'jpeg', quality: 50, selector: 'h1' },
        { as: 'both' },
      ),
      step('screenshot', { fullPage: true }, { as: 'full' }),
    ]);
    await done;
    assert.equal(
      Buffer.from(ctx.data.inline as string, 'base64')
        .subarray(1, 4)
        .toString(),
      'PNG',
    );
    assert.equal('a' in ctx.data, false);
    assert.equal(
      (await readFile(join(win.downloadsDir, 'shots', 'a.png'))).subarray(1, 4).toString(),
      'PNG',
    );
    const both = ctx.data.both as { path: string; size: number; bytesB64: string };
    assert.equal(both.path, join(win.downloadsDir, 'shots', 'b.jpeg'));
    assert.equal((await stat(both.path)).size, both.size);
    assert.equal(Buffer.from(both.bytesB64, 'base64')[0], 0xff);
    const neither = run([step('screenshot', {})]);
    await assert.rejects(neither.done, {
      code: 'ERR_RUNNER_INVALID_PARAM',
      message: 'step "screenshot": needs a path or a result name (at least one)',
    });
  });

  it('a file path that escapes the downloads directory fails', async () => {
    const { done } = run([step('screenshot', { path: '../../../../etc/x.png' })]);
    await assert.rejects(
      done,
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_PATH_ESCAPE' &&
        err.message.startsWith('step "screenshot": path "../../../../etc/x.png" escapes'),
    );
  });

  it('pdf, html-to-pdf (inline and file), snapshot (MHTML), save-html', async () => {
    await mkdir(win.downloadsDir, { recursive: true });
    await writeFile(join(win.downloadsDir, 'report.html'), '<h1>Report</h1>');
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/` }),
      step('pdf', { path: 'page.pdf', format: 'A4' }, { as: 'doc' }),
      step('html-to-pdf', { html: '<p>inline</p>', css: 'p{color:red}' }, { as: 'inline' }),
      step('html-to-pdf', { file: 'report.html', path: 'report.pdf' }),
      step('snapshot', { path: 'page.mhtml' }, { as: 'snap' }),
      step('save-html', { selector: 'h1', path: 'h1.html' }, { as: 'h1' }),
      step('save-html', { path: 'all.html' }),
    ]);
    await done;
    assert.equal(
      (await readFile(join(win.downloadsDir, 'page.pdf'))).subarray(0, 5).toString(),
      '%PDF-',
    );
    assert.equal((ctx.data.doc as { path: string }).path, join(win.downloadsDir, 'page.pdf'));
    assert.equal(
      Buffer.from(ctx.data.inline as string, 'base64')
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    assert.equal(
      (await readFile(join(win.downloadsDir, 'report.pdf'))).subarray(0, 5).toString(),
      '%PDF-',
    );
    const mhtml = await readFile(join(win.downloadsDir, 'page.mhtml'), 'utf8');
    assert.match(mhtml, /multipart\/related/);
    assert.match(mhtml, /Item 19/);
    assert.equal(await readFile(join(win.downloadsDir, 'h1.html'), 'utf8'), '<h1>Hello</h1>');
    assert.deepEqual(ctx.data.h1, { path: join(win.downloadsDir, 'h1.html'), size: 14 });
    assert.match(await readFile(join(win.downloadsDir, 'all.html'), 'utf8'), /<ul id="list">/);
  });

  it('emulate sets viewport, mobile metrics and colour scheme until reset', async () => {
    const probe =
      "return [screen.width, screen.height, devicePixelRatio, matchMedia('(prefers-color-scheme: dark)').matches, innerWidth, innerHeight];";
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/` }),
      step('emulate', {
        width: 390,
        height: 844,
        deviceScaleFactor: 3,
        mobile: true,
        colorScheme: 'dark',
      }),
      step('js', { script: probe }, { as: 'on' }),
      step('goto', { url: `${site.url}/form` }),
      step('js', { script: probe }, { as: 'kept' }),
      step('emulate', { reset: true }),
      step('js', { script: probe }, { as: 'off' }),
    ]);
    await done;
    // mobile: a page without a viewport meta tag lays out at 980 px, as on a phone.
    assert.deepEqual((ctx.data.on as unknown[]).slice(0, 5), [390, 844, 3, true, 980]);
    assert.deepEqual((ctx.data.kept as unknown[]).slice(0, 5), [390, 844, 3, true, 980]);
    assert.deepEqual((ctx.data.off as unknown[]).slice(2), [1, false, 1280, 720]);
  });
});

describe('network and session', () => {
  it('capture-network and console collect while their children run', async () => {
    const { ctx, done } = run([
      step(
        'capture-network',
        { urlFilter: '/api/', includeBodies: true, path: 'net.json' },
        {
          as: 'net',
          do: [
            step(
              'console',
              {},
              {
                as: 'logs',
                do: [
                  step('goto', { url: `${site.url}/network` }),
                  step('wait-for', { selector: '#n:not(:empty)' }),
                ],
              },
            ),
          ],
        },
      ),
    ]);
    await done;
    const net = ctx.data.net as { url: string; status: number; body: string; method: string }[];
    assert.equal(net.length, 1);
    assert.equal(net[0]!.url, `${site.url}/api/data`);
    assert.equal(net[0]!.status, 200);
    assert.equal(JSON.parse(net[0]!.body).value, 42);
    assert.deepEqual(ctx.data.logs, [{ type: 'log', text: 'loaded 42' }]);
    assert.equal(JSON.parse(await readFile(join(win.downloadsDir, 'net.json'), 'utf8')).length, 1);
  });

  it('get-cookies and set-cookies (inline and from a file)', async () => {
    await mkdir(win.downloadsDir, { recursive: true });
    await writeFile(
      join(win.downloadsDir, 'jar.json'),
      JSON.stringify([{ name: 'fromfile', value: '1', domain: '127.0.0.1', path: '/' }]),
    );
    const { ctx, done } = run(
      [
        step('goto', { url: `${site.url}/set-cookie` }),
        step(
          'set-cookies',
          { cookies: [{ name: 'token', value: '{{t}}', domain: '127.0.0.1', path: '/' }] },
          { as: 'set' },
        ),
        step('set-cookies', { file: 'jar.json' }),
        step('get-cookies', { urls: [site.url], path: 'cookies.json' }, { as: 'jar' }),
      ],
      { bindings: { t: 'xyz' } },
    );
    await done;
    const jar = ctx.data.jar as {
      name: string;
      value: string;
      domain: string;
      httpOnly: boolean;
    }[];
    const byName = Object.fromEntries(jar.map((c) => [c.name, c.value]));
    assert.deepEqual(byName, { sid: 'abc123', token: 'xyz', fromfile: '1' });
    assert.deepEqual(Object.keys(jar[0]!).sort(), [
      'domain',
      'expires',
      'httpOnly',
      'name',
      'path',
      'sameSite',
      'secure',
      'value',
    ]);
    assert.deepEqual(ctx.data.set, { count: 1 });
    assert.equal(
      JSON.parse(await readFile(join(win.downloadsDir, 'cookies.json'), 'utf8')).length,
      3,
    );
    await win.context.clearCookies();
  });

  it('http-get and http-post without the page', async () => {
    const { ctx, done } = run(
      [
        step(
          'http-request',
          { url: `${site.url}/api/data`, headers: { 'x-auth': 'Bearer {{TOKEN}}' } },
          { as: 'get' },
        ),
        step(
          'http-request',
          { method: 'POST', url: `${site.url}/api/data`, body: { q: '{{q}}' } },
          { as: 'post' },
        ),
        step('http-request', { url: `${site.url}/api/text` }, { as: 'text' }),
      ],
      { bindings: { q: 'cats' }, env: { TOKEN: 'tok' } },
    );
    await done;
    const get = ctx.data.get as {
      status: number;
      json: { value: number };
      headers: Record<string, string>;
    };
    assert.equal(get.status, 200);
    assert.equal(get.json.value, 42);
    assert.equal(get.headers['x-test'], 'yes');
    assert.equal(
      site.hits.find((h) => h.path === '/api/data' && h.headers['x-auth'] !== undefined)?.headers[
        'x-auth'
      ],
      'Bearer tok',
    );
    const post = ctx.data.post as { json: { method: string; body: string } };
    assert.deepEqual(post.json, { value: 42, method: 'POST', body: '{"q":"cats"}' });
    assert.deepEqual(ctx.data.text, {
      status: 404,
      headers: (ctx.data.text as { headers: unknown }).headers,
      body: 'not json',
    });
  });
});

describe('downloads', () => {
  it('download-each saves every download into the window directory', async () => {
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/downloads` }),
      step('download-each', { selector: 'a.dl', timeoutPerFileMs: 5000 }, { as: 'files' }),
    ]);
    await done;
    const files = ctx.data.files as { path: string; basename: string }[];
    assert.deepEqual(
      files.map((f) => f.basename),
      ['a.txt', 'b.txt'],
    );
    assert.equal(await readFile(files[1]!.path, 'utf8'), 'content of b.txt');
    assert.equal(files[0]!.path, join(win.downloadsDir, 'a.txt'));
  });

  it('save-captures-to-dir drains ready blob captures', async () => {
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/blobs` }),
      step('save-captures-to-dir', { dir: 'caps', naming: '{id}_{name}' }, { as: 'saved' }),
      step('js', { script: 'return window.__browsertaskCaptures.length;' }, { as: 'left' }),
    ]);
    await done;
    const saved = ctx.data.saved as {
      path: string;
      basename: string;
      size: number;
      mime: string;
      name: string;
      url: string;
    }[];
    assert.equal(saved.length, 1);
    assert.deepEqual(
      { ...saved[0], path: undefined },
      {
        path: undefined,
        basename: '7_report.txt',
        size: 10,
        mime: 'text/plain',
        name: 'report.txt',
        url: 'blob:x',
      },
    );
    assert.equal(
      await readFile(join(win.downloadsDir, 'caps', '7_report.txt'), 'utf8'),
      'hello blob',
    );
    assert.equal(ctx.data.left, 1);
    const escape = run([step('save-captures-to-dir', { dir: '/etc' })]);
    await assert.rejects(escape.done, { code: 'ERR_RUNNER_PATH_ESCAPE' });
  });
});

describe('control flow and values', () => {
  it('for-each iterates raw lists with <as>_index; continueOnError emits error events', async () => {
    const { ctx, events, done } = run(
      [
        step('set', { name: 'people', value: '{{list}}' }),
        step(
          'for-each',
          { over: '{{people}}', as: 'p' },
          {
            as: 'greetings',
            do: [step('set', { name: 'g', value: '{{p_index}}:{{p.name}}' })],
          },
        ),
        step(
          'for-each',
          { over: '{{people}}', as: 'p', continueOnError: true },
          {
            as: 'checked',
            do: [
              step(
                'js',
                {
                  script:
                    "if (arguments[0] === 'Bo') throw new Error('bad ' + arguments[0]); return arguments[0];",
                  args: ['{{p.name}}'],
                },
                { as: 'ok' },
              ),
            ],
          },
        ),
      ],
      { bindings: { list: [{ name: 'Al' }, { name: 'Bo' }] } },
    );
    await done;
    assert.deepEqual(ctx.data.greetings, [{ g: '0:Al' }, { g: '1:Bo' }]);
    assert.deepEqual(ctx.data.checked, [{ ok: 'Al' }, null]);
    assert.equal(events.events.length, 1);
    assert.equal(events.events[0]!.kind, 'error');
    assert.match(events.events[0]!.text, /bad Bo/);
    const bad = run([step('for-each', { over: 'not a list' }, { do: [] })]);
    await assert.rejects(bad.done, { code: 'ERR_RUNNER_INVALID_PARAM' });
  });

  it('loop while/until with inline conditions and modules, loop_index, max cap', async () => {
    const { ctx, done } = run([
      step('goto', { url: `${site.url}/` }),
      step(
        'loop',
        { until: 'window.__c >= 3', pauseMs: 0 },
        { as: 'l1', do: [step('js', { script: 'window.__c = (window.__c || 0) + 1;' })] },
      ),
      step('loop', { untilFn: 'done', pauseMs: 0 }, { as: 'l2', do: [] }),
      step(
        'loop',
        { while: 'true', pauseMs: 0, maxIterations: 4 },
        { as: 'l3', do: [step('set', { name: 'last', value: '{{loop_index}}' })] },
      ),
    ]);
    await done;
    assert.deepEqual(ctx.data.l1, { iterations: 3 });
    assert.deepEqual(ctx.data.l2, { iterations: 2 });
    assert.deepEqual(ctx.data.l3, { iterations: 4 });
    assert.equal(ctx.data.last, 3);
  });

  it('call runs another task in the same window with the current bindings; return stops the flow', async () => {
    const sub: TaskDef = {
      name: 'sub/title',
      poolTag: 'default',
      transports: ['rest'],
      input: { greeting: { type: 'string', required: false, default: 'hi' } },
      flow: [
        step(
          'js',
          {
            script: 'return document.title + " " + arguments[0] + " " + arguments[1];',
            args: ['{{who}}', '{{greeting}}'],
          },
          { as: 'title' },
        ),
      ],
    };
    const { ctx, done } = run(
      [
        step('goto', { url: `${site.url}/` }),
        step('call', { task: 'sub/title' }),
        step('return', { value: '{{title}}' }),
        step('set', { name: 'never', value: 'x' }),
      ],
      { bindings: { who: 'me' }, tasks: { 'sub/title': sub } },
    );
    await done;
    assert.equal(ctx.state.returned, true);
    assert.equal(ctx.state.returnValue, 'Home me hi');
    assert.equal('never' in ctx.data, false);
  });

  it('set keeps structure for one token; emit and status publish events', async () => {
    const { ctx, events, done } = run(
      [
        step('set', { name: 'copy', value: '{{obj}}' }),
        step('set', { name: 'text', value: 'n={{obj.n}}' }),
        step('emit-event', { kind: 'progress', text: 'at {{obj.n}}', data: { fraction: 0.5 } }),
        step('emit-event', { text: 'plain' }, { status: 'before {{obj.n}}' }),
      ],
      { bindings: { obj: { n: 2 } } },
    );
    await done;
    assert.deepEqual(ctx.data, { copy: { n: 2 }, text: 'n=2' });
    assert.deepEqual(events.events, [
      { kind: 'progress', text: 'at 2', data: { fraction: 0.5 } },
      { kind: 'status', text: 'before 2', data: null },
      { kind: 'status', text: 'plain', data: null },
    ]);
  });
});

describe('files', () => {
  it('export, write-files and read-file (downloads, bundle, optional, escapes)', async () => {
    const { ctx, done } = run(
      [
        step(
          'export',
          { format: 'csv', data: '{{rows}}', columns: ['b', 'a'], path: 'out/rows.csv' },
          { as: 'csv' },
        ),
        step('export', { format: 'ndjson', data: '{{rows}}' }, { as: 'nd' }),
        step(
          'write-files',
          {
            root: 'site',
            files: [
              { path: 'a/index.html', content: '<p>x</p>' },
              { path: 'b.bin', bytesB64: 'AAE=' },
            ],
          },
          { as: 'w' },
        ),
        step('read-file', { path: 'site/a/index.html' }, { as: 'back' }),
        step('read-file', { path: 'tasks/notes.txt' }, { as: 'fromBundle' }),
        step('read-file', { path: 'nope.json', optional: true }, { as: 'opt' }),
      ],
      { bindings: { rows: [{ a: 1, b: 'x' }] } },
    );
    await done;
    assert.equal(ctx.data.csv, 'b,a\nx,1\n');
    assert.equal(await readFile(join(win.downloadsDir, 'out', 'rows.csv'), 'utf8'), 'b,a\nx,1\n');
    assert.equal(ctx.data.nd, '{"a":1,"b":"x"}\n');
    const w = ctx.data.w as {
      count: number;
      root: string;
      files: { path: string; size: number }[];
    };
    assert.equal(w.count, 2);
    assert.equal(w.root, join(win.downloadsDir, 'site'));
    assert.deepEqual(w.files[1], { path: join(win.downloadsDir, 'site', 'b.bin'), size: 2 });
    assert.equal(ctx.data.back, '<p>x</p>');
    assert.equal(ctx.data.fromBundle, 'from the bundle');
    assert.equal(ctx.data.opt, '');
    const missing = run([step('read-file', { path: 'nope.json' })]);
    await assert.rejects(missing.done, {
      code: 'ERR_RUNNER_STEP_FAILED',
      message: 'step "read-file": file "nope.json" not found',
    });
    const readEscape = run([step('read-file', { path: '/etc/passwd' })]);
    await assert.rejects(readEscape.done, { code: 'ERR_RUNNER_PATH_ESCAPE' });
    const writeEscape = run([
      step('write-files', { root: 'site', files: [{ path: '../../x', content: '' }] }),
    ]);
    await assert.rejects(
      writeEscape.done,
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_PATH_ESCAPE' && err.message.includes('files[].path "../../x"'),
    );
  });
});

describe('recording', () => {
  it('step record writes a GIF and emits a recording event; a failing step names the file', async () => {
    const { events, done } = run([step('goto', { url: `${site.url}/anim` }, { record: true })]);
    await done;
    const rec = events.events.find((e) => e.kind === 'recording');
    const data = rec?.data as { path: string; step: string; ok: boolean };
    assert.equal(data.step, 'goto');
    assert.equal(data.ok, true);
    assert.ok(data.path.startsWith(join(win.root, 'recordings', 'test', 'task', 'run-1')));
    assert.equal((await readFile(data.path)).subarray(0, 3).toString(), 'GIF');
    const failing = run([
      step('wait-for', { selector: '.never', timeoutMs: 300 }, { record: true }),
    ]);
    await assert.rejects(failing.done, (err: RunnerError) =>
      /^step "wait-for": timeout after 300 ms waiting for "\.never" \(recording: .+\.gif\)$/.test(
        err.message,
      ),
    );
    const failEvent = failing.events.events.find((e) => e.kind === 'recording')?.data as {
      ok: boolean;
    };
    assert.equal(failEvent.ok, false);
  });

  it('record block: GIF to a path and bound; a failing block is still saved', async () => {
    const { ctx, events, done } = run([
      step('goto', { url: `${site.url}/anim` }),
      step(
        'record',
        { format: 'gif', fps: 4, path: 'clip.gif' },
        { as: 'clip', do: [step('wait', { duration: 300 })] },
      ),
    ]);
    await done;
    const clip = ctx.data.clip as { path: string; size: number };
    assert.equal(clip.path, join(win.downloadsDir, 'clip.gif'));
    assert.equal((await readFile(clip.path)).subarray(0, 3).toString(), 'GIF');
    assert.equal(events.events.filter((e) => e.kind === 'recording').length, 1);
    const failing = run([
      step(
        'record',
        { path: 'fail.gif' },
        {
          do: [
            step('wait', { duration: 700 }),
            step('wait-for', { selector: '.never', timeoutMs: 100 }),
          ],
        },
      ),
    ]);
    await assert.rejects(
      failing.done,
      (err: RunnerError) =>
        err.message.includes('(recording: ') && err.message.startsWith('step "wait-for"'),
    );
    assert.equal(
      (await readFile(join(win.downloadsDir, 'fail.gif'))).subarray(0, 3).toString(),
      'GIF',
    );
  });

  it('MP4 with ffmpeg; without ffmpeg it says how to get it, or falls back to GIF', async () => {
    const mp4 = run([
      step(
        'record',
        { format: 'mp4', path: 'clip.mp4' },
        { do: [step('wait', { duration: 300 })] },
      ),
    ]);
    await mp4.done;
    assert.equal(
      (await readFile(join(win.downloadsDir, 'clip.mp4'))).subarray(4, 8).toString(),
      'ftyp',
    );
    const none = run(
      [step('record', { format: 'mp4', path: 'x.mp4' }, { do: [step('wait', { duration: 100 })] })],
      { ffmpegPath: '/nonexistent/ffmpeg' },
    );
    await assert.rejects(
      none.done,
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_RECORDING' &&
        /needs ffmpeg/.test(err.message) &&
        /apt-get install ffmpeg/.test(err.message) &&
        /fallback gif/.test(err.message),
    );
    const fallback = run(
      [
        step(
          'record',
          { format: 'mp4', path: 'y.mp4', fallback: 'gif' },
          { as: 'y', do: [step('wait', { duration: 100 })] },
        ),
      ],
      { ffmpegPath: '/nonexistent/ffmpeg' },
    );
    await fallback.done;
    assert.equal(
      (await readFile(join(win.downloadsDir, 'y.gif'))).subarray(0, 3).toString(),
      'GIF',
    );
    // The window stays usable.
    const after = run([step('js', { script: 'return 1 + 1;' }, { as: 'two' })]);
    await after.done;
    assert.equal(after.ctx.data.two, 2);
  });
});
