// The CLI without a browser: usage errors, bundle (determinism, atomicity), check, init,
// and start-up failures that must happen before any browser starts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot, runCli } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'browsertask-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const sha256 = (file: string): string =>
  createHash('sha256').update(readFileSync(file)).digest('hex');
const example = join(repoRoot, 'bundle-example');

describe('usage', () => {
  it('lists the commands on --help and exits 0', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    for (const c of ['serve', 'run', 'check', 'bundle', 'init'])
      assert.match(r.stdout, new RegExp(`\\b${c}\\b`));
  });

  it('has --help on every command', async () => {
    for (const c of ['serve', 'run', 'check', 'bundle', 'init']) {
      const r = await runCli([c, '--help']);
      assert.equal(r.code, 0, c);
      assert.match(r.stdout, new RegExp(`Usage: browsertask ${c}`));
    }
  });

  it('exits 2 on an unknown command or flag', async () => {
    const cmd = await runCli(['frobnicate']);
    assert.equal(cmd.code, 2);
    assert.match(cmd.stderr, /unknown command "frobnicate"/);
    const flag = await runCli(['check', '--frob', 'x']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--frob/);
    const serveFlag = await runCli(['serve', '--nope']);
    assert.equal(serveFlag.code, 2);
    const missing = await runCli(['bundle', 'only-one']);
    assert.equal(missing.code, 2);
  });
});

describe('bundle', () => {
  it('writes a byte-identical zip for the same input', async () => {
    const a = join(tmp, 'a.zip');
    const b = join(tmp, 'new', 'dir', 'b.zip'); // missing parent directories are created
    assert.equal((await runCli(['bundle', example, a])).code, 0);
    assert.equal((await runCli(['bundle', example, b])).code, 0);
    assert.equal(sha256(a), sha256(b));
    const check = await runCli(['check', a]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /zip bundle, 9 task\(s\), 0 error/);
  });

  it('fails with file:line:col on a broken recipe and leaves no zip', async () => {
    const src = join(tmp, 'broken');
    mkdirSync(join(src, 'tasks'), { recursive: true });
    writeFileSync(join(src, 'tasks', 'ok.task'), 'task "ok"\n  goto "http://127.0.0.1:9/"\nend\n');
    writeFileSync(join(src, 'tasks', 'bad.task'), 'task "bad"\n  goto\n  frobnicate "x"\nend\n');
    const out = join(tmp, 'broken.zip');
    const r = await runCli(['bundle', src, out]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /broken\/tasks\/bad\.task:\d+:\d+: /);
    assert.equal(existsSync(out), false);
  });

  it('rejects an invalid config file naming the file and the path inside it', async () => {
    const src = join(tmp, 'badpool');
    mkdirSync(join(src, 'tasks'), { recursive: true });
    writeFileSync(join(src, 'tasks', 'ok.task'), 'task "ok"\n  goto "http://127.0.0.1:9/"\nend\n');
    writeFileSync(join(src, 'pool.yaml'), 'pools:\n  default:\n    size: lots\n');
    const out = join(tmp, 'badpool.zip');
    const r = await runCli(['bundle', src, out]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /badpool\/pool\.yaml:3:\d+: pools\.default\.size/);
    assert.equal(existsSync(out), false);
  });
});

describe('check', () => {
  it('passes bundle-example', async () => {
    const r = await runCli(['check', example]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /directory bundle, 9 task\(s\), 0 error\(s\), 0 warning/);
  });

  it('passes a webtasks-style bundle (YAML TaskDefs, tasks/pool.yaml, ${WEBTASKS_…} mount dirs)', async () => {
    const dir = join(tmp, 'webtasks');
    mkdirSync(join(dir, 'tasks', 'basics'), { recursive: true });
    mkdirSync(join(dir, 'scripts', 'demo'), { recursive: true });
    writeFileSync(
      join(dir, 'tasks', 'basics', 'title.yaml'),
      [
        'name: basics/title',
        'poolTag: default',
        'transports: [rest]',
        'timeoutMs: 20000',
        'input:',
        '  url: { type: string, default: "https://example.com" }',
        'flow:',
        '  - run: goto',
        '    params: { url: "{{url}}" }',
        '  - run: js',
        '    as: stats',
        '    params: { fn: demo/page-stats.js }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'scripts', 'demo', 'page-stats.js'), 'return document.title;\n');
    writeFileSync(join(dir, 'tasks', 'pool.yaml'), 'pools:\n  default:\n    size: 1\n');
    writeFileSync(
      join(dir, 'static-mounts.yaml'),
      'mounts:\n  - prefix: "/downloads"\n    dir: "${WEBTASKS_DOWNLOADS_DIR:-build/downloads}"\n    list: true\n    serve: true\n',
    );
    const r = await runCli(['check', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 task\(s\), 0 error/);
  });

  it('reports every broken file and exits 1', async () => {
    const dir = join(tmp, 'two-broken');
    mkdirSync(join(dir, 'tasks'), { recursive: true });
    writeFileSync(join(dir, 'tasks', 'a.task'), 'task "a"\n  goto\nend\n');
    writeFileSync(join(dir, 'tasks', 'b.task'), 'task "b"\n  wait until\nend\n');
    writeFileSync(join(dir, 'secrets.yaml'), 'secrets:\n  - { description: no name }\n');
    const r = await runCli(['check', dir]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /tasks\/a\.task:2:\d+: /);
    assert.match(r.stderr, /tasks\/b\.task:2:\d+: /);
    assert.match(r.stderr, /secrets\.yaml:2:\d+: secrets\[0\]/);
  });
});

describe('init', () => {
  it('scaffolds a bundle that passes check, then refuses to overwrite it', async () => {
    const dir = join(tmp, 'starter');
    const first = await runCli(['init', dir]);
    assert.equal(first.code, 0, first.stderr);
    for (const f of [
      'tasks/hello.task',
      'scripts/headline.js',
      'pool.yaml',
      'static-mounts.yaml',
      'secrets.yaml',
    ]) {
      assert.ok(existsSync(join(dir, f)), f);
    }
    const check = await runCli(['check', dir]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /0 error\(s\), 0 warning/);
    const again = await runCli(['init', dir]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /refusing to overwrite/);
  });
});

describe('serve start-up failures (before any browser starts)', () => {
  it('stops on an invalid config file, naming the file and the path', async () => {
    const dir = join(tmp, 'serve-badmounts');
    mkdirSync(join(dir, 'tasks'), { recursive: true });
    writeFileSync(join(dir, 'tasks', 'ok.task'), 'task "ok"\n  goto "http://127.0.0.1:9/"\nend\n');
    writeFileSync(join(dir, 'static-mounts.yaml'), 'mounts:\n  - prefix: /x\n    list: maybe\n');
    const r = await runCli(['serve'], { env: { SERVICE_BUNDLE: dir, SERVICE_PORT: '0' } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /static-mounts\.yaml:\d+:\d+: mounts\[0\]/);
  });

  it('refuses to start when a required secret is missing', async () => {
    const dir = join(tmp, 'serve-secret');
    mkdirSync(join(dir, 'tasks'), { recursive: true });
    writeFileSync(join(dir, 'tasks', 'ok.task'), 'task "ok"\n  goto "http://127.0.0.1:9/"\nend\n');
    writeFileSync(
      join(dir, 'secrets.yaml'),
      'secrets:\n  - { name: NEEDED_TOKEN, required: true, sensitive: true, sources: [env, arg] }\n',
    );
    const r = await runCli(['serve'], {
      env: { SERVICE_BUNDLE: dir, SERVICE_PORT: '0', NEEDED_TOKEN: undefined },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /NEEDED_TOKEN/);
    assert.doesNotMatch(r.stderr, /"msg":"listening"/);
  });

  it('rejects a --FLAG that is not a declared secret with exit 2', async () => {
    const r = await runCli(['serve', '--NOT_DECLARED=1'], {
      env: { SERVICE_BUNDLE: example, SERVICE_PORT: '0' },
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--NOT_DECLARED/);
  });

  it('fails clearly on a missing bundle', async () => {
    const r = await runCli(['serve'], {
      env: { SERVICE_BUNDLE: join(tmp, 'nope'), SERVICE_PORT: '0' },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cannot open bundle/);
  });
});
