import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { test } from 'node:test';
import { openBundle, type Bundle } from '../src/index.js';
import { testBundleContract } from './helpers/contract.js';
import { centralRecords, makeZip, readAll, replaceFile, tempDir } from './helpers/zip.js';

testBundleContract('zip', 'zip', async (files) => {
  const { dir, cleanup } = await tempDir('zip');
  const file = join(dir, 'bundle.zip');
  const current = { ...files };
  await writeFile(file, await makeZip(current));
  const bundle = await openBundle(file);
  return {
    bundle,
    async update(changes) {
      for (const [name, content] of Object.entries(changes)) {
        if (content === null) delete current[name];
        else current[name] = content;
      }
      await replaceFile(file, await makeZip(current));
    },
    async cleanup() {
      await bundle.close();
      await cleanup();
    },
  };
});

async function zipBundle(
  files: Record<string, string | Buffer>,
  name = 'bundle.zip',
): Promise<{ file: string; bundle: Bundle; cleanup: () => Promise<void> }> {
  const { dir, cleanup } = await tempDir('zip1');
  const file = join(dir, name);
  await writeFile(file, await makeZip(files));
  const bundle = await openBundle(file);
  return {
    file,
    bundle,
    cleanup: async () => {
      bundle.destroy();
      await cleanup();
    },
  };
}

test('.jar archives and zip files without an extension open as zip bundles', async (t) => {
  const jar = await zipBundle({ 'tasks/a.task': 'a' }, 'bundle.jar');
  t.after(jar.cleanup);
  assert.equal(jar.bundle.kind, 'zip');
  assert.equal(await jar.bundle.readText('tasks/a.task'), 'a');
  const bare = await zipBundle({ 'tasks/b.task': 'b' }, 'bundle');
  t.after(bare.cleanup);
  assert.equal(bare.bundle.kind, 'zip');
  assert.deepEqual(await bare.bundle.list(), ['tasks/b.task']);
});

test('a read in flight keeps the old archive when the zip is replaced', async (t) => {
  const big = randomBytes(4 * 1024 * 1024);
  const { file, bundle, cleanup } = await zipBundle({ 'data/big.bin': big, 'tasks/a.task': 'old' });
  t.after(cleanup);
  const stream = bundle.createReadStream('data/big.bin');
  stream.pause();
  await once(stream, 'readable');
  await replaceFile(
    file,
    await makeZip({ 'data/big.bin': randomBytes(1024), 'tasks/a.task': 'new!' }),
  );
  assert.deepEqual(await readAll(stream), big, 'the stream finishes with the old bytes');
  assert.equal(await bundle.readText('tasks/a.task'), 'new!');
  assert.equal((await bundle.stat('data/big.bin'))?.size, 1024);
});

test('an archive rewritten in place under a read fails it with ERR_BUNDLE_CHANGED', async (t) => {
  const big = randomBytes(4 * 1024 * 1024);
  const { file, bundle, cleanup } = await zipBundle({ 'data/big.bin': big });
  t.after(cleanup);
  const stream = bundle.createReadStream('data/big.bin');
  stream.pause();
  await once(stream, 'readable');
  // Same inode, new bytes: what `cp new.zip bundle.zip` does.
  await writeFile(file, await makeZip({ 'data/big.bin': randomBytes(4 * 1024 * 1024) }));
  await assert.rejects(readAll(stream), { code: 'ERR_BUNDLE_CHANGED', entry: 'data/big.bin' });
  assert.equal(
    (await bundle.readFile('data/big.bin')).length,
    4 * 1024 * 1024,
    'the next read re-opens',
  );
});

test('a zip replaced by a corrupt file fails clearly, then recovers', async (t) => {
  const { file, bundle, cleanup } = await zipBundle({ 'tasks/a.task': 'one' });
  t.after(cleanup);
  await replaceFile(file, randomBytes(2000));
  await assert.rejects(bundle.readText('tasks/a.task'), { code: 'ERR_BUNDLE_CORRUPT' });
  await assert.rejects(bundle.list(), { code: 'ERR_BUNDLE_CORRUPT' });
  await replaceFile(file, await makeZip({ 'tasks/a.task': 'two' }));
  assert.equal(await bundle.readText('tasks/a.task'), 'two');
});

test('a zip removed from disk reports ERR_BUNDLE_NOT_FOUND', async (t) => {
  const { dir, cleanup } = await tempDir('gone');
  t.after(cleanup);
  const file = join(dir, 'b.zip');
  await writeFile(file, await makeZip({ 'a.task': 'a' }));
  const bundle = await openBundle(file);
  t.after(() => bundle.close());
  const { rm } = await import('node:fs/promises');
  await rm(file);
  await assert.rejects(bundle.version(), { code: 'ERR_BUNDLE_NOT_FOUND' });
  await assert.rejects(bundle.readFile('a.task'), { code: 'ERR_BUNDLE_NOT_FOUND' });
});

test('an entry whose bytes fail the CRC is reported corrupt', async (t) => {
  const { dir, cleanup } = await tempDir('crc');
  t.after(cleanup);
  const content = Buffer.from('stored content that we will damage');
  const zip = await makeZip({ 'a.txt': content }, { 'a.txt': { compress: false } });
  const at = zip.indexOf(content);
  zip[at + 3] = zip[at + 3]! ^ 0xff;
  const file = join(dir, 'crc.zip');
  await writeFile(file, zip);
  const bundle = await openBundle(file);
  t.after(() => bundle.close());
  await assert.rejects(bundle.readFile('a.txt'), (err: { code: string; message: string }) => {
    assert.equal(err.code, 'ERR_BUNDLE_CORRUPT');
    assert.match(err.message, /CRC-32/);
    return true;
  });
});

test('an entry that inflates past its declared size is stopped (lying headers)', async (t) => {
  const { dir, cleanup } = await tempDir('lie');
  t.after(cleanup);
  const zip = await makeZip({ 'a.txt': Buffer.alloc(200_000, 0x61) });
  // Claim 1000 bytes in the central directory (offset 24: uncompressed size).
  const [record] = centralRecords(zip);
  zip.writeUInt32LE(1000, record! + 24);
  const file = join(dir, 'lie.zip');
  await writeFile(file, zip);
  const bundle = await openBundle(file);
  t.after(() => bundle.close());
  assert.equal((await bundle.stat('a.txt'))?.size, 1000);
  await assert.rejects(bundle.readFile('a.txt'), (err: { code: string; message: string }) => {
    assert.equal(err.code, 'ERR_BUNDLE_CORRUPT');
    assert.match(err.message, /inflates beyond its declared 1000 bytes/);
    return true;
  });
});

test('describe() gives the facts for the start-up log line', async (t) => {
  const { bundle, cleanup } = await zipBundle({ 'tasks/a.task': 'abc', 'pool.yaml': 'x' });
  t.after(cleanup);
  const info = await bundle.describe();
  assert.deepEqual(
    { ...info, version: typeof info.version, path: typeof info.path },
    {
      kind: 'zip',
      path: 'string',
      fileCount: 2,
      totalBytes: 4,
      version: 'string',
    },
  );
});

test('close() waits for reads in flight, destroy() ends them', async (t) => {
  const big = randomBytes(2 * 1024 * 1024);
  const { bundle, cleanup } = await zipBundle({ 'big.bin': big });
  t.after(cleanup);
  const reading = bundle.readFile('big.bin');
  const closing = bundle.close();
  assert.deepEqual(await reading, big);
  await closing;
  await assert.rejects(bundle.readFile('big.bin'), { code: 'ERR_BUNDLE_CLOSED' });

  const other = await zipBundle({ 'big.bin': big });
  t.after(other.cleanup);
  const stream = other.bundle.createReadStream('big.bin');
  stream.pause();
  await once(stream, 'readable');
  other.bundle.destroy();
  other.bundle.destroy();
  assert.equal(stream.destroyed, true);
});

test('readers racing archive swaps get whole old or new content, or a clear error; never garbage', async (t) => {
  const versions = [randomBytes(200_000), randomBytes(201_000), randomBytes(202_000)];
  const zips = await Promise.all(
    versions.map((v, i) => makeZip({ 'big.bin': v, 'tasks/a.task': `v${i}` })),
  );
  const { dir, cleanup } = await tempDir('race');
  t.after(cleanup);
  const file = join(dir, 'race.zip');
  await writeFile(file, zips[0]!);
  const bundle = await openBundle(file);
  t.after(() => bundle.close());
  const outcomes = new Map<string, number>();
  const count = (k: string): void => void outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  let stop = false;
  const reader = async (): Promise<void> => {
    while (!stop) {
      try {
        const buf = await bundle.readFile('big.bin');
        count(versions.some((v) => v.equals(buf)) ? 'whole' : 'garbage');
      } catch (err) {
        count((err as { code?: string }).code ?? 'uncoded');
      }
    }
  };
  const readers = [reader(), reader(), reader()];
  for (let i = 1; i <= 30; i++) {
    const zip = zips[i % zips.length]!;
    // Odd swaps are atomic renames; even ones rewrite the file in place (truncate + write).
    if (i % 2 === 1) await replaceFile(file, zip);
    else await writeFile(file, zip);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  stop = true;
  await Promise.all(readers);
  assert.ok((outcomes.get('whole') ?? 0) > 0, JSON.stringify([...outcomes]));
  for (const key of outcomes.keys()) {
    assert.ok(
      ['whole', 'ERR_BUNDLE_CHANGED', 'ERR_BUNDLE_CORRUPT'].includes(key),
      `unexpected outcome ${key}`,
    );
  }
  await replaceFile(file, zips[2]!);
  assert.deepEqual(await bundle.readFile('big.bin'), versions[2]);
});

test('an archive with a long comment opens (the end record is found from the end)', async (t) => {
  const { dir, cleanup } = await tempDir('comment');
  t.after(cleanup);
  const file = join(dir, 'c.zip');
  // unzipper alone only looks at the last 80 bytes; we locate the record ourselves.
  const comment = `built by browsertask bundle; ${'x'.repeat(3000)}`;
  await writeFile(file, await makeZip({ 'tasks/a.task': 'a' }, {}, { comment }));
  const bundle = await openBundle(file);
  t.after(() => bundle.close());
  assert.equal(await bundle.readText('tasks/a.task'), 'a');
});
