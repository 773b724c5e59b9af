// examples/zip-bundle end to end: the real `browsertask bundle` turns recipes/ into a zip,
// `browsertask check` accepts the zip, and one real `browsertask serve` (real Chromium,
// real HTTP) runs its tasks from the zip, read in place.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import {
  logLines,
  repoRoot,
  runCli,
  serve,
  type Served,
} from '../../../apps/service/test/helpers/cli.js';

const recipes = fileURLToPath(new URL('../recipes', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'browsertask-zip-bundle-'));
const zip = join(tmp, 'bundle.zip');
let svc: Served | undefined;

after(async () => {
  const code = await svc?.stop();
  rmSync(tmp, { recursive: true, force: true });
  if (svc) assert.equal(code, 0);
});

/** Entry names from a zip's central directory (signature 0x02014b50). */
function zipEntries(buf: Buffer): string[] {
  const names: string[] = [];
  for (let i = buf.indexOf('PK\x01\x02'); i >= 0; i = buf.indexOf('PK\x01\x02', i + 46)) {
    const nameLength = buf.readUInt16LE(i + 28);
    names.push(buf.subarray(i + 46, i + 46 + nameLength).toString('utf8'));
  }
  return names;
}

test('`browsertask bundle` writes a zip of YAML tasks, scripts and config', async () => {
  const res = await runCli(['bundle', recipes, zip]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stderr, /wrote .*bundle\.zip \(6 files\)/);
  assert.deepEqual(zipEntries(readFileSync(zip)), [
    'pool.yaml',
    'scripts/quotes/count-tags.js',
    'scripts/quotes/filter-by-tag.js',
    'static-mounts.yaml',
    'tasks/quotes/by-tag.yaml',
    'tasks/quotes/tag-counts.yaml',
  ]);
});

test('bundling twice gives byte-identical zips', async () => {
  const again = join(tmp, 'again.zip');
  const res = await runCli(['bundle', recipes, again]);
  assert.equal(res.code, 0, res.stderr);
  assert.ok(readFileSync(again).equals(readFileSync(zip)));
});

test('`browsertask check` passes on the zip', async () => {
  const res = await runCli(['check', zip]);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /zip bundle, 2 task\(s\), 0 error\(s\), 0 warning\(s\)/);
});

test('the zip serves and runs its tasks', async () => {
  svc = await serve({
    SERVICE_BUNDLE: zip,
    SERVICE_DOWNLOADS_DIR: join(tmp, 'downloads'),
    // The zip lives in a temp dir: the relative mount dir would miss the demo site.
    DEMO_SITE_DIR: join(repoRoot, 'examples', 'demo-site', 'public'),
  });
  assert.ok(logLines(svc.stderr()).some((l) => l.msg === 'opened zip bundle'));

  const tasks = (await (await fetch(`${svc.baseUrl}/tasks`)).json()) as { name: string }[];
  assert.deepEqual(tasks.map((t) => t.name).sort(), ['quotes/by-tag', 'quotes/tag-counts']);

  const res = await fetch(`${svc.baseUrl}/tasks/quotes/by-tag`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tag: 'testing', page: 2 }),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as {
    ok: boolean;
    data: { tag: string; page: number; quotes: { text: string; author: string }[] };
  };
  assert.equal(body.ok, true);
  assert.equal(body.data.tag, 'testing');
  assert.equal(body.data.page, 2);
  assert.ok(body.data.quotes.length > 0);
  for (const q of body.data.quotes) {
    assert.ok(q.text.length > 0 && q.author.length > 0);
  }

  const counts = (await (
    await fetch(`${svc.baseUrl}/tasks/quotes/tag-counts`, { method: 'POST', body: '{}' })
  ).json()) as { ok: boolean; data: Record<string, number> };
  assert.equal(counts.ok, true);
  // page 1 has ten quotes of two tags each
  assert.equal(
    Object.values(counts.data).reduce((a, b) => a + b, 0),
    20,
  );
  assert.equal(counts.data.testing, 3);
});
