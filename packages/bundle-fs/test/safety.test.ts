import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { BundleError, openBundle } from '../src/index.js';
import { makeZip, patchName, tempDir } from './helpers/zip.js';

/** Asserts that opening `file` fails with `code`, a message matching `message`, and `entry`. */
async function rejectsOpen(
  file: string,
  code: string,
  message: RegExp,
  options: Parameters<typeof openBundle>[1] = {},
  entry?: string,
): Promise<void> {
  await assert.rejects(openBundle(file, options), (err: unknown) => {
    assert.ok(err instanceof BundleError, String(err));
    assert.equal(err.code, code, err.message);
    assert.match(err.message, message);
    if (entry !== undefined) assert.equal(err.entry, entry);
    return true;
  });
}

// yazl refuses unsafe names, so each fixture is written with a same-length placeholder and
// patched in both the local header and the central directory.
const SLIP_CASES: { name: string; placeholder: string; why: RegExp }[] = [
  { name: '../evil', placeholder: 'XX/evil', why: /"\.\.\/evil" contains a "\.\." segment/ },
  { name: '/etc/x', placeholder: 'Xetc/x', why: /"\/etc\/x" is absolute/ },
  {
    name: 'a/../../x',
    placeholder: 'a/XX/XX/x',
    why: /"a\/\.\.\/\.\.\/x" contains a "\.\." segment/,
  },
  { name: 'tasks\\..\\x', placeholder: 'tasksX..Xx', why: /contains a backslash/ },
  { name: 'C:/win.task', placeholder: 'CX/win.task', why: /starts with a drive letter/ },
  { name: 'a\0.task', placeholder: 'aX.task', why: /contains a NUL character/ },
];

for (const c of SLIP_CASES) {
  test(`zip-slip: an entry named ${JSON.stringify(c.name)} rejects the whole archive`, async (t) => {
    const { dir, cleanup } = await tempDir('slip');
    t.after(cleanup);
    const zip = patchName(
      await makeZip({ 'tasks/ok.task': 'ok', [c.placeholder]: 'pwned' }),
      c.placeholder,
      c.name,
    );
    const file = join(dir, 'slip.zip');
    await writeFile(file, zip);
    await rejectsOpen(file, 'ERR_BUNDLE_UNSAFE_PATH', c.why, {}, c.name);
  });
}

test('a symlink entry in a zip is rejected', async (t) => {
  const { dir, cleanup } = await tempDir('zlink');
  t.after(cleanup);
  const file = join(dir, 'link.zip');
  await writeFile(
    file,
    await makeZip({ 'tasks/l.task': '/etc/passwd' }, { 'tasks/l.task': { mode: 0o120777 } }),
  );
  await rejectsOpen(
    file,
    'ERR_BUNDLE_UNSAFE_PATH',
    /"tasks\/l\.task" is a symbolic link/,
    {},
    'tasks/l.task',
  );
});

test('a symlink escaping a directory bundle is rejected at open, naming the link', async (t) => {
  const { dir, cleanup } = await tempDir('escape');
  t.after(cleanup);
  await mkdir(join(dir, 'bundle/tasks'), { recursive: true });
  await writeFile(join(dir, 'secret.txt'), 'top secret');
  await writeFile(join(dir, 'bundle/tasks/ok.task'), 'ok');
  await symlink(join(dir, 'secret.txt'), join(dir, 'bundle/tasks/evil.task'));
  await rejectsOpen(
    join(dir, 'bundle'),
    'ERR_BUNDLE_SYMLINK_ESCAPE',
    /symbolic link "tasks\/evil\.task" .* outside the bundle/,
    {},
    'tasks/evil.task',
  );
});

test('a directory symlink escaping the bundle is rejected too', async (t) => {
  const { dir, cleanup } = await tempDir('escape-dir');
  t.after(cleanup);
  await mkdir(join(dir, 'bundle'), { recursive: true });
  await mkdir(join(dir, 'elsewhere'));
  await symlink(join(dir, 'elsewhere'), join(dir, 'bundle/scripts'));
  await rejectsOpen(join(dir, 'bundle'), 'ERR_BUNDLE_SYMLINK_ESCAPE', /"scripts"/, {}, 'scripts');
});

test('a symlink escape added after open is refused on read and list', async (t) => {
  const { dir, cleanup } = await tempDir('escape-later');
  t.after(cleanup);
  await mkdir(join(dir, 'bundle'), { recursive: true });
  await writeFile(join(dir, 'bundle/a.task'), 'a');
  await writeFile(join(dir, 'outside.txt'), 'outside');
  const bundle = await openBundle(join(dir, 'bundle'));
  t.after(() => bundle.close());
  await symlink('../outside.txt', join(dir, 'bundle/b.task'));
  await assert.rejects(bundle.readText('b.task'), {
    code: 'ERR_BUNDLE_SYMLINK_ESCAPE',
    entry: 'b.task',
  });
  await assert.rejects(bundle.list(), { code: 'ERR_BUNDLE_SYMLINK_ESCAPE' });
  await assert.rejects(bundle.stat('b.task'), { code: 'ERR_BUNDLE_SYMLINK_ESCAPE' });
});

test('zip bomb: a highly compressed big entry is rejected by the ratio limit', async (t) => {
  const { dir, cleanup } = await tempDir('bomb');
  t.after(cleanup);
  const file = join(dir, 'bomb.zip');
  const zip = await makeZip({ 'tasks/a.task': 'ok', 'zeros.bin': Buffer.alloc(50 * 1024 * 1024) });
  assert.ok(zip.length < 200 * 1024, `the bomb is tiny (${zip.length} bytes)`);
  await writeFile(file, zip);
  await rejectsOpen(
    file,
    'ERR_BUNDLE_LIMIT',
    /"zeros\.bin" expands \d+:1 .* over the 100:1 compression-ratio limit/,
    {},
    'zeros.bin',
  );
  // With the ratio limit raised, the size limits still hold.
  await rejectsOpen(
    file,
    'ERR_BUNDLE_LIMIT',
    /is 50 MiB uncompressed, over the 10 MiB limit for one file/,
    {
      maxCompressionRatio: 1e9,
      maxFileBytes: 10 * 1024 * 1024,
    },
  );
  await rejectsOpen(
    file,
    'ERR_BUNDLE_LIMIT',
    /expands to more than 20 MiB \(option maxTotalBytes\)/,
    {
      maxCompressionRatio: 1e9,
      maxTotalBytes: 20 * 1024 * 1024,
    },
  );
});

test('too many entries are rejected (zip before parsing, directory while walking)', async (t) => {
  const { dir, cleanup } = await tempDir('many');
  t.after(cleanup);
  const files: Record<string, string> = {};
  for (let i = 0; i < 11; i++) files[`tasks/t${i}.task`] = `t${i}`;
  const file = join(dir, 'many.zip');
  await writeFile(file, await makeZip(files));
  await rejectsOpen(file, 'ERR_BUNDLE_LIMIT', /has 11 entries, over the limit of 10/, {
    maxEntries: 10,
  });
  const ok = await openBundle(file, { maxEntries: 11 });
  assert.equal((await ok.list()).length, 11);
  await ok.close();

  await mkdir(join(dir, 'tree/tasks'), { recursive: true });
  for (const [name, content] of Object.entries(files))
    await writeFile(join(dir, 'tree', name), content);
  await rejectsOpen(
    join(dir, 'tree'),
    'ERR_BUNDLE_LIMIT',
    /more than 10 files \(option maxEntries\)/,
    { maxEntries: 10 },
  );
});

test('corrupt archives fail with ERR_BUNDLE_CORRUPT, never a crash', async (t) => {
  const { dir, cleanup } = await tempDir('corrupt');
  t.after(cleanup);
  const valid = await makeZip({
    'tasks/a.task': 'goto "x"\n'.repeat(50),
    'scripts/b.js': 'b'.repeat(3000),
  });
  const cases: [string, Buffer, RegExp][] = [
    [
      'random.zip',
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)),
      /no end-of-central-directory record/,
    ],
    [
      'truncated.zip',
      valid.subarray(0, valid.length >> 1),
      /no end-of-central-directory record \(not a zip archive, or truncated\)/,
    ],
    ['tail-cut.zip', valid.subarray(0, valid.length - 5), /no end-of-central-directory record/],
    ['tiny.zip', Buffer.from('PK'), /too small for a zip archive/],
    ['empty.zip', Buffer.alloc(0), /too small/],
  ];
  // The end record intact but the central directory it points at overwritten.
  const damagedCd = Buffer.from(valid);
  const cdOffset = damagedCd.readUInt32LE(damagedCd.length - 22 + 16);
  damagedCd.fill(0x41, cdOffset, cdOffset + 60);
  cases.push(['damaged-cd.zip', damagedCd, /central directory/]);
  // The end record pointing past the data (as when the middle of a file is lost).
  const headless = Buffer.concat([valid.subarray(0, 10), valid.subarray(valid.length - 22)]);
  cases.push(['headless.zip', headless, /past the end of the data/]);
  for (const [name, bytes, why] of cases) {
    const file = join(dir, name);
    await writeFile(file, bytes);
    await rejectsOpen(file, 'ERR_BUNDLE_CORRUPT', why);
  }
});

test('missing paths and unsupported files get their own codes', async (t) => {
  const { dir, cleanup } = await tempDir('kinds');
  t.after(cleanup);
  await rejectsOpen(
    join(dir, 'nope'),
    'ERR_BUNDLE_NOT_FOUND',
    /no bundle at .*nope: expected a directory or a \.zip\/\.jar archive/,
  );
  await rejectsOpen(join(dir, 'nope.zip'), 'ERR_BUNDLE_NOT_FOUND', /no bundle at/);
  await writeFile(join(dir, 'notes.txt'), 'just text');
  await rejectsOpen(
    join(dir, 'notes.txt'),
    'ERR_BUNDLE_UNSUPPORTED',
    /neither a directory nor a \.zip\/\.jar archive/,
  );
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  await rejectsOpen(join(dir, 'fifo'), 'ERR_BUNDLE_UNSUPPORTED', /neither a directory/);
});

test('an aborted signal stops openBundle', async (t) => {
  const { dir, cleanup } = await tempDir('abort');
  t.after(cleanup);
  await assert.rejects(openBundle(dir, { signal: AbortSignal.abort() }), {
    code: 'ERR_BUNDLE_ABORTED',
  });
});

test('invalid limit options are a TypeError', async () => {
  await assert.rejects(openBundle('.', { maxEntries: -1 }), TypeError);
});
