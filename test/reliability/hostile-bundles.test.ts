/**
 * Hostile bundles (issue #7): zip-slip, zip bomb, symlinks leaving the bundle, a 10 MB
 * recipe and recursive setup tasks. Each gets a clear error and none crashes the process.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  health,
  post,
  removeDir,
  serve,
  stopAndCountLeaks,
  writeBundle,
} from './helpers/harness.ts';
import { rawZip } from './helpers/zip.ts';

const cli = fileURLToPath(new URL('../../apps/service/bin/browsertask.js', import.meta.url));
const cleanups: (() => void)[] = [];
after(() => {
  for (const c of cleanups) c();
});

function tempFile(name: string, data: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'browsertask-hostile-'));
  cleanups.push(() => removeDir(dir));
  const file = join(dir, name);
  writeFileSync(file, data);
  return file;
}

const okTask = Buffer.from('task "ok"\n  return "fine"\nend\n');

/** `browsertask serve` on a bundle that must be refused: exit code and stderr. */
function serveRefused(bundle: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [cli, 'serve'], {
    env: {
      ...process.env,
      SERVICE_BUNDLE: bundle,
      SERVICE_PORT: '0',
      SERVICE_HEADLESS: 'true',
      SERVICE_LOG_LEVEL: 'warn',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stderr: `${r.stderr}${r.stdout}` };
}

function check(bundle: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [cli, 'check', bundle], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stderr}${r.stdout}` };
}

describe('hostile bundles', { concurrency: false }, () => {
  test('zip-slip entries are rejected by check and serve, naming the entry', () => {
    for (const name of ['../evil.task', '/etc/evil.task', 'tasks/../../evil.task']) {
      const zip = tempFile(
        'slip.zip',
        rawZip([
          { name: 'tasks/ok.task', data: okTask },
          { name, data: okTask },
        ]),
      );
      const c = check(zip);
      assert.equal(c.status, 1, c.out);
      assert.ok(c.out.includes(name.replace(/^\//, '')) || c.out.includes(name), c.out);
      const s = serveRefused(zip);
      assert.notEqual(s.status, 0);
      assert.match(s.stderr, /evil/);
    }
  });

  test('a zip bomb is rejected with the limit it broke', () => {
    const zeros = Buffer.alloc(300 * 1024 * 1024);
    const zip = tempFile(
      'bomb.zip',
      rawZip([
        { name: 'tasks/ok.task', data: okTask },
        { name: 'scripts/bomb.js', data: zeros, deflate: true },
      ]),
    );
    const c = check(zip);
    assert.equal(c.status, 1, c.out);
    assert.match(c.out, /limit|ratio|too large|exceeds/i);
    const s = serveRefused(zip);
    assert.notEqual(s.status, 0);
  });

  test('a symlink leaving a directory bundle is an error, its target is never read', () => {
    const outside = mkdtempSync(join(tmpdir(), 'browsertask-outside-'));
    cleanups.push(() => removeDir(outside));
    writeFileSync(join(outside, 'stolen.task'), 'task "stolen"\n  return "STOLEN"\nend\n');
    const bundle = writeBundle({ 'tasks/ok.task': okTask.toString() });
    cleanups.push(() => removeDir(bundle));
    symlinkSync(join(outside, 'stolen.task'), join(bundle, 'tasks', 'stolen.task'));
    const c = check(bundle);
    assert.equal(c.status, 1, c.out);
    assert.match(c.out, /stolen\.task/);
    assert.match(c.out, /symlink|outside|escape/i);
  });

  test('a 10 MB recipe and recursive setup tasks: clear errors, the service keeps serving', async () => {
    const bundle = writeBundle({
      'tasks/ok.task': okTask.toString(),
      'tasks/huge.task': `task "huge"\n${'  # padding comment line to make the recipe very large\n'.repeat(190_000)}  return "big"\nend\n`,
      'tasks/a.task': 'task "loop/a"\n  setup "loop/b"\n  return "a"\nend\n',
      'tasks/b.task': 'task "loop/b"\n  setup "loop/a"\n  return "b"\nend\n',
      'tasks/self.task': 'task "loop/self"\n  setup "loop/self"\n  return "self"\nend\n',
      'tasks/caller.task': 'task "loop/caller"\n  call "loop/caller"\nend\n',
    });
    cleanups.push(() => removeDir(bundle));
    const svc = await serve(bundle);
    try {
      const huge = await post(svc.baseUrl, 'huge');
      assert.ok(
        huge.status === 200 || huge.body.error?.code === 'EXECUTION_FAILED',
        JSON.stringify(huge.body).slice(0, 300),
      );
      for (const slug of ['loop/a', 'loop/self', 'loop/caller']) {
        const run = await post(svc.baseUrl, slug);
        assert.equal(run.status, 500, `${slug}: ${JSON.stringify(run.body)}`);
        assert.equal(run.body.error?.code, 'EXECUTION_FAILED');
        assert.match(run.body.error.message, /cycle/);
      }
      const ok = await post(svc.baseUrl, 'ok');
      assert.equal(ok.body.data, 'fine');
      assert.equal((await health(svc.baseUrl)).ok, true);
    } finally {
      assert.deepEqual(await stopAndCountLeaks(svc), []);
    }
  });
});
