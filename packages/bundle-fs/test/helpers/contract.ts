// One contract suite for every Bundle backend (in the spirit of unstorage's testDriver).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { describe, test } from 'node:test';
import type { Bundle, BundleKind } from '../../src/index.js';
import { readAll } from './zip.js';

/** A bundle under test plus a way to change it on disk. */
export interface BundleFixture {
  bundle: Bundle;
  /** Writes (string/Buffer) or removes (null) files, then makes the change visible on disk. */
  update(changes: Record<string, string | Buffer | null>): Promise<void>;
  /** Closes the bundle and removes the files. */
  cleanup(): Promise<void>;
}

/** Creates a backend's bundle holding exactly `files`. */
export type MakeBundle = (files: Record<string, string | Buffer>) => Promise<BundleFixture>;

const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const LARGE = randomBytes(300 * 1024);

/** The files every contract test starts from. */
export const CONTRACT_FILES: Record<string, string | Buffer> = {
  'tasks/login.task': 'goto "https://example.test"\n',
  'tasks/shop/search.task': 'goto "https://shop.test"\nwait ".results"\n',
  'tasks/shop/deep/x.yaml': 'name: x\nflow: []\n',
  'tasks/pool.yaml': 'pools:\n  default: { size: 1 }\n',
  'scripts/util.js': 'export const x = 1;\n',
  'scripts/lib/helpers.js': 'export const y = 2;\n',
  pool: 'pools:\n  default: { size: 2 }\n',
  'secrets.yaml': 'secrets: []\n',
  'static-mounts.json': '{"mounts":[]}',
  'bom.txt': '\uFEFFhéllo wörld',
  'bin/all-bytes.bin': BINARY,
  'bin/large.bin': LARGE,
  'bin/empty.bin': Buffer.alloc(0),
};

const SORTED = Object.keys(CONTRACT_FILES).sort();

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

/** Runs the shared Bundle contract against one backend. */
export function testBundleContract(name: string, kind: BundleKind, makeBundle: MakeBundle): void {
  describe(`Bundle contract: ${name}`, () => {
    const withBundle = (title: string, fn: (fx: BundleFixture) => Promise<void>): void => {
      test(title, async (t) => {
        const fx = await makeBundle(CONTRACT_FILES);
        t.after(() => fx.cleanup());
        await fn(fx);
      });
    };

    withBundle('reports its kind and absolute path', async ({ bundle }) => {
      assert.equal(bundle.kind, kind);
      assert.ok(isAbsolute(bundle.path), bundle.path);
      const info = await bundle.describe();
      assert.equal(info.kind, kind);
      assert.equal(info.path, bundle.path);
      assert.equal(info.fileCount, SORTED.length);
      const total = Object.values(CONTRACT_FILES).reduce((n, c) => n + Buffer.byteLength(c), 0);
      assert.equal(info.totalBytes, total);
      assert.equal(info.version, await bundle.version());
    });

    withBundle('lists every file, sorted, with / separators', async ({ bundle }) => {
      assert.deepEqual(await bundle.list(), SORTED);
    });

    withBundle('filters the list with globs', async ({ bundle }) => {
      assert.deepEqual(await bundle.list('tasks/**/*.task'), [
        'tasks/login.task',
        'tasks/shop/search.task',
      ]);
      assert.deepEqual(await bundle.list('tasks/**/*.{task,webtask,yaml}'), [
        'tasks/login.task',
        'tasks/pool.yaml',
        'tasks/shop/deep/x.yaml',
        'tasks/shop/search.task',
      ]);
      assert.deepEqual(await bundle.list('scripts/**/*.js'), [
        'scripts/lib/helpers.js',
        'scripts/util.js',
      ]);
      assert.deepEqual(await bundle.list('{pool,secrets,static-mounts}{,.yaml,.yml,.json}'), [
        'pool',
        'secrets.yaml',
        'static-mounts.json',
      ]);
      assert.deepEqual(await bundle.list('*'), [
        'bom.txt',
        'pool',
        'secrets.yaml',
        'static-mounts.json',
      ]);
      assert.deepEqual(await bundle.list('bin/???-bytes.bin'), ['bin/all-bytes.bin']);
      assert.deepEqual(await bundle.list('nothing/**'), []);
      assert.equal(await codeOf(bundle.list('tasks/{a,b')), 'ERR_BUNDLE_INVALID_GLOB');
    });

    withBundle('reads buffers, text and streams exactly', async ({ bundle }) => {
      assert.deepEqual(await bundle.readFile('bin/all-bytes.bin'), BINARY);
      assert.deepEqual(await bundle.readFile('bin/large.bin'), LARGE);
      assert.equal((await bundle.readFile('bin/empty.bin')).length, 0);
      assert.equal(
        await bundle.readText('tasks/shop/search.task'),
        CONTRACT_FILES['tasks/shop/search.task'],
      );
      assert.equal(await bundle.readText('bom.txt'), 'héllo wörld');
      assert.deepEqual(await readAll(bundle.createReadStream('bin/large.bin')), LARGE);
      assert.deepEqual(
        await readAll(bundle.createReadStream('tasks/login.task')),
        Buffer.from(CONTRACT_FILES['tasks/login.task'] as string),
      );
      assert.equal((await readAll(bundle.createReadStream('bin/empty.bin'))).length, 0);
    });

    withBundle('normalises ./ and repeated slashes', async ({ bundle }) => {
      assert.equal(
        await bundle.readText('./tasks//login.task'),
        CONTRACT_FILES['tasks/login.task'],
      );
      assert.equal(await bundle.exists('./scripts/./util.js'), true);
    });

    withBundle('stats files and answers exists()', async ({ bundle }) => {
      const st = await bundle.stat('bin/large.bin');
      assert.ok(st);
      assert.equal(st.size, LARGE.length);
      assert.ok(Number.isFinite(st.mtimeMs) && st.mtimeMs > 0);
      assert.equal(await bundle.stat('tasks/nope.task'), undefined);
      assert.equal(await bundle.stat('tasks'), undefined, 'directories are not files');
      assert.equal(await bundle.exists('tasks/shop/deep/x.yaml'), true);
      assert.equal(await bundle.exists('tasks/shop'), false);
      assert.equal(await bundle.exists('missing'), false);
    });

    withBundle('fails with stable codes for missing and unsafe paths', async ({ bundle }) => {
      assert.equal(await codeOf(bundle.readFile('tasks/nope.task')), 'ERR_BUNDLE_FILE_NOT_FOUND');
      assert.equal(await codeOf(bundle.readFile('tasks')), 'ERR_BUNDLE_FILE_NOT_FOUND');
      assert.equal(
        await codeOf(bundle.readText('tasks/login.task/x')),
        'ERR_BUNDLE_FILE_NOT_FOUND',
      );
      for (const bad of [
        '../outside',
        'tasks/../../x',
        '/etc/passwd',
        'tasks\\login.task',
        'a\0b',
        'C:/x',
        '',
      ]) {
        assert.equal(await codeOf(bundle.readFile(bad)), 'ERR_BUNDLE_UNSAFE_PATH', bad);
        assert.equal(await codeOf(bundle.stat(bad)), 'ERR_BUNDLE_UNSAFE_PATH', bad);
      }
      assert.equal(
        await codeOf(readAll(bundle.createReadStream('nope'))),
        'ERR_BUNDLE_FILE_NOT_FOUND',
      );
      assert.equal(
        await codeOf(readAll(bundle.createReadStream('../x'))),
        'ERR_BUNDLE_UNSAFE_PATH',
      );
    });

    withBundle('serves many concurrent reads', async ({ bundle }) => {
      const names = await bundle.list();
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => bundle.readFile(names[i % names.length]!)),
      );
      results.forEach((buf, i) => {
        const expected = CONTRACT_FILES[names[i % names.length]!]!;
        assert.deepEqual(buf, typeof expected === 'string' ? Buffer.from(expected) : expected);
      });
    });

    withBundle('keeps its version while nothing changes', async ({ bundle }) => {
      const v1 = await bundle.version();
      assert.equal(typeof v1, 'string');
      await bundle.readFile('tasks/login.task');
      await bundle.list();
      assert.equal(await bundle.version(), v1);
    });

    withBundle(
      'changes version and content when a file changes, is added or removed',
      async (fx) => {
        const { bundle } = fx;
        const seen = new Set([await bundle.version()]);
        const before = {
          changed: (await bundle.stat('tasks/login.task'))?.fingerprint,
          kept: (await bundle.stat('scripts/util.js'))?.fingerprint,
        };

        await fx.update({ 'tasks/login.task': 'goto "https://changed.test"\nwait "#x"\n' });
        // Fingerprints let readers skip files that did not change.
        assert.notEqual((await bundle.stat('tasks/login.task'))?.fingerprint, before.changed);
        assert.equal((await bundle.stat('scripts/util.js'))?.fingerprint, before.kept);
        assert.ok(before.kept !== undefined && before.kept !== '');
        const v2 = await bundle.version();
        assert.ok(!seen.has(v2), 'version changes when a file changes');
        seen.add(v2);
        assert.equal(
          await bundle.readText('tasks/login.task'),
          'goto "https://changed.test"\nwait "#x"\n',
        );
        assert.equal(
          (await bundle.stat('tasks/login.task'))?.size,
          Buffer.byteLength('goto "https://changed.test"\nwait "#x"\n'),
        );

        await fx.update({ 'tasks/new/added.task': 'goto "https://added.test"\n' });
        const v3 = await bundle.version();
        assert.ok(!seen.has(v3), 'version changes when a file is added');
        seen.add(v3);
        assert.ok((await bundle.list('tasks/**/*.task')).includes('tasks/new/added.task'));
        assert.equal(await bundle.readText('tasks/new/added.task'), 'goto "https://added.test"\n');

        await fx.update({ 'tasks/shop/search.task': null });
        const v4 = await bundle.version();
        assert.ok(!seen.has(v4), 'version changes when a file is removed');
        assert.equal(await bundle.exists('tasks/shop/search.task'), false);
        assert.equal(
          await codeOf(bundle.readFile('tasks/shop/search.task')),
          'ERR_BUNDLE_FILE_NOT_FOUND',
        );
        assert.deepEqual(await bundle.list('tasks/**/*.task'), [
          'tasks/login.task',
          'tasks/new/added.task',
        ]);
        assert.equal(await bundle.version(), v4, 'stable again once the change is read');
        assert.equal((await bundle.describe()).version, v4);
      },
    );

    withBundle('refuses calls after close (idempotent)', async ({ bundle }) => {
      await bundle.close();
      await bundle.close();
      assert.equal(await codeOf(bundle.readFile('tasks/login.task')), 'ERR_BUNDLE_CLOSED');
      assert.equal(await codeOf(bundle.list()), 'ERR_BUNDLE_CLOSED');
      assert.equal(await codeOf(bundle.version()), 'ERR_BUNDLE_CLOSED');
    });
  });
}
