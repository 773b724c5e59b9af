import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateStaticMounts } from '../src/index.js';
import { fakeCatalogue, fakeRunTask, startHarness, type Harness } from './helpers/server.js';

let base: string;
let root: string;
let h: Harness;

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'bt-mounts-'));
  root = join(base, 'root');
  await mkdir(join(root, 'sub', 'deeper'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await mkdir(join(base, 'root2'));
  await writeFile(join(base, 'outside', 'secret.txt'), 'top secret');
  await writeFile(join(base, 'root2', 'x.txt'), 'sibling');
  await writeFile(join(root, 'a.txt'), 'hello world');
  await writeFile(join(root, 'b.json'), '{"b":1}');
  await writeFile(join(root, '.hidden'), 'h');
  await writeFile(join(root, 'sp ace.txt'), 'space');
  await writeFile(join(root, 'sub', 'c.txt'), 'c');
  await writeFile(join(root, 'sub', 'deeper', 'd.bin'), Buffer.alloc(3));
  await symlink(join(root, 'a.txt'), join(root, 'link-in'));
  await symlink(join(base, 'outside', 'secret.txt'), join(root, 'link-out'));
  await symlink(join(base, 'outside'), join(root, 'dirlink-out'));

  const mounts = validateStaticMounts(
    {
      mounts: [
        { prefix: 'files', dir: '${ROOT}', list: true, serve: true, recursive: true },
        { prefix: '/flat/', dir: 'root', list: true },
        { prefix: '/blobs', dir: 'root', serve: true },
        { prefix: '/missing', dir: '${NOPE:-does-not-exist}', list: true, serve: true },
      ],
    },
    { ROOT: root },
    { baseDir: base },
  );
  assert.ok(mounts.ok);
  h = await startHarness({
    catalogue: fakeCatalogue([]),
    runTask: fakeRunTask({}),
    mounts: mounts.value,
  });
});
after(async () => {
  await h.close();
  await rm(base, { recursive: true, force: true });
});

describe('listing', () => {
  test('recursive listing: sorted, relative names, encoded urls, size and mtime', async () => {
    const r = await h.req('GET', '/files');
    assert.equal(r.status, 200);
    assert.equal(r.json.ok, true);
    assert.equal(r.json.mount, '/files');
    assert.equal(r.json.dir, root);
    const names = r.json.entries.map((e: { name: string }) => e.name);
    assert.deepEqual(names, [
      '.hidden',
      'a.txt',
      'b.json',
      'link-in',
      'sp ace.txt',
      'sub/c.txt',
      'sub/deeper/d.bin',
    ]);
    assert.equal(r.json.count, names.length);
    const a = r.json.entries[1];
    assert.deepEqual(a, {
      name: 'a.txt',
      url: '/files/a.txt',
      size: 11,
      mtime: Math.floor((await stat(join(root, 'a.txt'))).mtimeMs),
    });
    assert.equal(r.json.entries[4].url, '/files/sp%20ace.txt');
    assert.equal(r.json.entries[6].url, '/files/sub/deeper/d.bin');
    assert.ok(Number.isInteger(a.mtime));
  });

  test('non-recursive listing has only top-level files', async () => {
    const r = await h.req('GET', '/flat');
    assert.equal(r.status, 200);
    assert.equal(r.json.dir, root);
    assert.deepEqual(
      r.json.entries.map((e: { name: string }) => e.name),
      ['.hidden', 'a.txt', 'b.json', 'link-in', 'sp ace.txt'],
    );
    assert.equal(r.json.entries[1].url, '/flat/a.txt');
  });

  test('a missing directory lists empty', async () => {
    const r = await h.req('GET', '/missing');
    assert.equal(r.status, 200);
    assert.deepEqual(
      { count: r.json.count, entries: r.json.entries, dir: r.json.dir },
      { count: 0, entries: [], dir: join(base, 'does-not-exist') },
    );
  });

  test('routes exist only for declared capabilities', async () => {
    const noList = await h.req('GET', '/blobs');
    assert.equal(noList.status, 404);
    assert.equal(noList.json.error.code, 'NOT_FOUND');
    const noServe = await h.req('GET', '/flat/a.txt');
    assert.equal(noServe.status, 404);
    assert.equal(noServe.json.error.code, 'NOT_FOUND');
    const undeclared = await h.req('GET', '/downloads/a.txt');
    assert.equal(undeclared.status, 404);
  });
});

describe('serving', () => {
  test('streams files with content type, ETag and Last-Modified', async () => {
    const r = await h.req('GET', '/files/a.txt');
    assert.equal(r.status, 200);
    assert.equal(r.text, 'hello world');
    assert.match(r.headers['content-type']!, /^text\/plain/);
    assert.ok(r.headers['etag']);
    assert.equal(
      r.headers['last-modified'],
      new Date((await stat(join(root, 'a.txt'))).mtimeMs).toUTCString(),
    );
    assert.equal(r.headers['accept-ranges'], 'bytes');
    assert.ok(r.headers['x-request-id']);
    const json = await h.req('GET', '/blobs/b.json');
    assert.match(json.headers['content-type']!, /^application\/json/);
    assert.equal(json.text, '{"b":1}');
  });

  test('nested, encoded, dot and symlinked-inside names are served', async () => {
    assert.equal((await h.req('GET', '/files/sub/c.txt')).text, 'c');
    assert.equal((await h.req('GET', '/files/sp%20ace.txt')).text, 'space');
    assert.equal((await h.req('GET', '/files/.hidden')).text, 'h');
    assert.equal((await h.req('GET', '/files/link-in')).text, 'hello world');
  });

  test('If-None-Match with the ETag → 304', async () => {
    const first = await h.req('GET', '/files/a.txt');
    const r = await h.req('GET', '/files/a.txt', {
      headers: { 'if-none-match': first.headers['etag']! },
    });
    assert.equal(r.status, 304);
    assert.equal(r.text, '');
  });

  test('Range → 206 with Content-Range; unsatisfiable → 416 envelope', async () => {
    const r = await h.req('GET', '/files/a.txt', { headers: { range: 'bytes=0-4' } });
    assert.equal(r.status, 206);
    assert.equal(r.text, 'hello');
    assert.equal(r.headers['content-range'], 'bytes 0-4/11');
    const tail = await h.req('GET', '/files/a.txt', { headers: { range: 'bytes=-5' } });
    assert.equal(tail.text, 'world');
    const bad = await h.req('GET', '/files/a.txt', { headers: { range: 'bytes=100-200' } });
    assert.equal(bad.status, 416);
    assert.equal(bad.headers['content-range'], 'bytes */11');
    assert.equal(bad.json.error.code, 'RANGE_NOT_SATISFIABLE');
  });

  test('HEAD returns headers without a body', async () => {
    const r = await h.req('HEAD', '/files/a.txt');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-length'], '11');
    assert.equal(r.text, '');
  });

  test('missing files and directories → 404 NOT_FOUND', async () => {
    for (const path of [
      '/files/nope.txt',
      '/files/sub',
      '/files/sub/',
      '/files/sub/nope/x',
      '/missing/a.txt',
    ]) {
      const r = await h.req('GET', path);
      assert.equal(r.status, 404, path);
      assert.deepEqual(r.json.ok, false);
      assert.equal(r.json.error.code, 'NOT_FOUND', path);
    }
  });

  test('every escape encoding → 403 FORBIDDEN envelope', async () => {
    const escapes = [
      '/files/../outside/secret.txt',
      '/files/sub/../../outside/secret.txt',
      '/files/../root2/x.txt',
      '/files/..',
      '/files/%2e%2e/outside/secret.txt',
      '/files/%2E%2E/outside/secret.txt',
      '/files/.%2e/outside/secret.txt',
      '/files/..%2foutside%2fsecret.txt',
      '/files/..%2Foutside/secret.txt',
      '/files/%252e%252e/outside/secret.txt',
      '/files/%252e%252e%252foutside%252fsecret.txt',
      '/files/..%5coutside%5csecret.txt',
      '/files/..\\outside\\secret.txt',
      '/files/a.txt%00',
      '/files/a.txt%00.png',
      '/files/%2fetc%2fpasswd',
      '/files//etc/passwd',
      '/files/./a.txt',
      '/files/link-out',
      '/files/dirlink-out/secret.txt',
      '/files/%E0%A4%A',
      '/blobs/../outside/secret.txt',
    ];
    for (const path of escapes) {
      const r = await h.req('GET', path);
      assert.equal(r.status, 403, path);
      assert.deepEqual(r.json.ok, false, path);
      assert.equal(r.json.error.code, 'FORBIDDEN', path);
      assert.equal(r.text.includes('top secret'), false);
    }
  });
});
