import assert from 'node:assert/strict';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { openBundle } from '../src/index.js';
import { testBundleContract } from './helpers/contract.js';
import { tempDir } from './helpers/zip.js';

async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

testBundleContract('directory', 'directory', async (files) => {
  const { dir, cleanup } = await tempDir('dir');
  const root = join(dir, 'bundle');
  await writeTree(root, files);
  const bundle = await openBundle(root);
  return {
    bundle,
    async update(changes) {
      for (const [name, content] of Object.entries(changes)) {
        if (content === null) await rm(join(root, name));
        else await writeTree(root, { [name]: content });
      }
    },
    async cleanup() {
      await bundle.close();
      await cleanup();
    },
  };
});

test('directory bundle follows symlinks that stay inside the root', async (t) => {
  const { dir, cleanup } = await tempDir('links');
  t.after(cleanup);
  await writeTree(dir, { 'real/tasks/a.task': 'goto "x"\n', 'real/shared/b.js': 'b' });
  await symlink(join(dir, 'real/shared'), join(dir, 'real/scripts'));
  await symlink('a.task', join(dir, 'real/tasks/alias.task'));
  await symlink('..', join(dir, 'real/shared/up')); // a cycle: must not loop
  await symlink('missing-target', join(dir, 'real/tasks/dangling.task'));
  const bundle = await openBundle(join(dir, 'real'));
  t.after(() => bundle.close());
  assert.deepEqual(await bundle.list('**/*.{task,js}'), [
    'scripts/b.js',
    'shared/b.js',
    'tasks/a.task',
    'tasks/alias.task',
  ]);
  assert.equal(await bundle.readText('tasks/alias.task'), 'goto "x"\n');
  assert.equal(await bundle.readText('scripts/b.js'), 'b');
  assert.equal(await bundle.exists('tasks/dangling.task'), false);
});

test('directory bundle opened through a symlinked root', async (t) => {
  const { dir, cleanup } = await tempDir('rootlink');
  t.after(cleanup);
  await writeTree(dir, { 'real/tasks/a.task': 'a' });
  await symlink(join(dir, 'real'), join(dir, 'link'));
  const bundle = await openBundle(join(dir, 'link'));
  t.after(() => bundle.close());
  assert.equal(bundle.path, join(dir, 'link'));
  assert.equal(await bundle.readText('tasks/a.task'), 'a');
});

test('directory bundle: a file growing over maxFileBytes is refused on read', async (t) => {
  const { dir, cleanup } = await tempDir('dirlimit');
  t.after(cleanup);
  await writeTree(dir, { 'tasks/a.task': 'small' });
  const bundle = await openBundle(dir, { maxFileBytes: 10 });
  t.after(() => bundle.close());
  await writeFile(join(dir, 'tasks/a.task'), 'much more than ten bytes');
  await assert.rejects(bundle.readFile('tasks/a.task'), {
    code: 'ERR_BUNDLE_LIMIT',
    entry: 'tasks/a.task',
  });
  assert.equal((await bundle.stat('tasks/a.task'))?.size, 24, 'stat still reports the size');
});
