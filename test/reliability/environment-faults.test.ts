/**
 * Faults of the environment rather than the page (issue #7): a zip bundle replaced while
 * served, ffmpeg missing, and a recordings directory that cannot be written (disk full).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  post,
  removeDir,
  serve,
  stopAndCountLeaks,
  waitAllFree,
  writeBundle,
} from './helpers/harness.ts';

const cli = fileURLToPath(new URL('../../apps/service/bin/browsertask.js', import.meta.url));
const cleanups: (() => void | Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function bundleZip(dir: string, out: string): void {
  const r = spawnSync(process.execPath, [cli, 'bundle', dir, out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

describe('environment faults', { concurrency: false }, () => {
  test('zip replaced during requests: answers come from the old or the new archive', async () => {
    const work = mkdtempSync(join(tmpdir(), 'browsertask-rel-zip-'));
    cleanups.push(() => removeDir(work));
    const v1 = writeBundle({ 'tasks/version.task': 'task "version"\n  return "v1"\nend\n' });
    const v2 = writeBundle({ 'tasks/version.task': 'task "version"\n  return "v2"\nend\n' });
    cleanups.push(
      () => removeDir(v1),
      () => removeDir(v2),
    );
    const zip = join(work, 'bundle.zip');
    bundleZip(v1, zip);
    bundleZip(v2, join(work, 'v2.zip'));
    bundleZip(v1, join(work, 'v1.zip'));
    const svc = await serve(zip);
    try {
      const first = await post(svc.baseUrl, 'version');
      assert.equal(first.body.data, 'v1');
      const seen: unknown[] = [];
      let swapping = true;
      const swapper = (async () => {
        for (let i = 0; swapping; i++) {
          // Atomic replacement, as a deploy does: copy aside, rename over.
          const next = join(work, `next-${i}.zip`);
          spawnSync('cp', [join(work, i % 2 === 0 ? 'v2.zip' : 'v1.zip'), next]);
          renameSync(next, zip);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      for (let i = 0; i < 40; i++) {
        const run = await post(svc.baseUrl, 'version');
        if (run.status === 200) seen.push(run.body.data);
        else assert.equal(run.body.error?.code, 'EXECUTION_FAILED', JSON.stringify(run.body));
      }
      swapping = false;
      await swapper;
      assert.ok(seen.length >= 30, `most runs succeed during swaps (${seen.length}/40)`);
      assert.ok(seen.every((v) => v === 'v1' || v === 'v2'));
      spawnSync('cp', [join(work, 'v2.zip'), join(work, 'final.zip')]);
      renameSync(join(work, 'final.zip'), zip);
      const last = await post(svc.baseUrl, 'version');
      assert.equal(last.body.data, 'v2', 'the replaced archive is served');
    } finally {
      assert.deepEqual(await stopAndCountLeaks(svc), []);
    }
  });

  test('ffmpeg missing: MP4 fails saying how to get ffmpeg, GIF fallback works, window usable', async () => {
    const bundle = writeBundle({
      'tasks/mp4.task': 'task "mp4"\n  record clip format mp4\n    wait 300\n  end\nend\n',
      'tasks/mp4-fallback.task':
        'task "mp4-fallback"\n  record clip format mp4 fallback gif\n    wait 300\n  end\nend\n',
      'tasks/ping.task': 'task "ping"\n  js v script "return 41 + 1;"\nend\n',
    });
    cleanups.push(() => removeDir(bundle));
    const emptyBin = mkdtempSync(join(tmpdir(), 'browsertask-nobin-'));
    cleanups.push(() => removeDir(emptyBin));
    // No ffmpeg anywhere on PATH; Chromium by absolute path (the real binary, not the wrapper script).
    const svc = await serve(bundle, {
      PATH: emptyBin,
      SERVICE_BROWSER: '/usr/lib/chromium/chromium',
    });
    try {
      const mp4 = await post(svc.baseUrl, 'mp4');
      assert.equal(mp4.status, 500);
      assert.equal(mp4.body.error?.code, 'EXECUTION_FAILED');
      assert.match(mp4.body.error.message, /ffmpeg/);
      assert.match(mp4.body.error.message, /install/i);
      const gif = await post(svc.baseUrl, 'mp4-fallback');
      assert.equal(gif.status, 200, JSON.stringify(gif.body));
      const ping = await post(svc.baseUrl, 'ping');
      assert.equal(ping.status, 200);
      assert.deepEqual(ping.body.data, { v: 42 });
      await waitAllFree(svc.baseUrl);
    } finally {
      assert.deepEqual(await stopAndCountLeaks(svc), []);
    }
  });

  test('recordings directory full: the recorded run fails clearly, the service keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'browsertask-full-'));
    cleanups.push(() => removeDir(dir));
    const recordings = join(dir, 'recordings');
    mkdirSync(recordings);
    // A 16 KiB tmpfs fills up at once; where mounting is not allowed, a file in the way
    // of the directory makes every write fail the same way.
    const mounted =
      spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', recordings]).status === 0;
    let recordingsDir = recordings;
    if (mounted) {
      cleanups.push(() => void spawnSync('umount', [recordings]));
      // Fill it: the disk is full before the service starts.
      try {
        writeFileSync(join(recordings, 'filler'), Buffer.alloc(64 * 1024, 1));
      } catch (err) {
        assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
      }
    } else {
      writeFileSync(join(dir, 'blocker'), '');
      recordingsDir = join(dir, 'blocker', 'recordings');
    }
    const bundle = writeBundle({
      'tasks/rec.task':
        "task \"rec\"\n  transport sse\n  js v script \"document.body.innerHTML = '<h1>' + 'x'.repeat(2000) + '</h1>'; return 1;\" record\nend\n",
      'tasks/rec-block.task':
        'task "rec-block"\n  record clip format gif path "{{SERVICE_RECORDINGS_DIR}}/clip.gif"\n    js _ script "document.body.innerHTML = \'<h1>\' + \'y\'.repeat(3000) + \'</h1>\'; return 1;"\n    wait 400\n  end\nend\n',
      'tasks/ping.task': 'task "ping"\n  js v script "return 42;"\nend\n',
    });
    cleanups.push(() => removeDir(bundle));
    const svc = await serve(bundle, { SERVICE_RECORDINGS_DIR: recordingsDir });
    try {
      // A step-level recording is a debug aid: the run succeeds, SSE callers hear why it is missing.
      const res = await fetch(`${svc.baseUrl}/tasks/rec`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
        body: '{}',
      });
      const stream = await res.text();
      assert.match(stream, /event: recording\ndata: .*"saved":false/);
      assert.match(stream, /event: done\ndata: \{"ok":true,"data":\{"v":1\}\}/);
      // A recording the recipe asked to save fails the run with the reason.
      const block = await post(svc.baseUrl, 'rec-block');
      assert.equal(block.status, 500, JSON.stringify(block.body));
      assert.equal(block.body.error?.code, 'EXECUTION_FAILED');
      assert.match(block.body.error.message, /ENOSPC|no space|ENOTDIR|not a directory/i);
      const ping = await post(svc.baseUrl, 'ping');
      assert.equal(ping.status, 200);
      await waitAllFree(svc.baseUrl);
    } finally {
      assert.deepEqual(await stopAndCountLeaks(svc), []);
    }
  });
});
