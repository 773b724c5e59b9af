import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { assertStaticMounts, expandEnv, ServerError, validateStaticMounts } from '../src/index.js';

test('normalises prefixes, applies defaults and resolves dir against baseDir', () => {
  const r = validateStaticMounts(
    {
      mounts: [
        { prefix: 'files/', dir: 'out' },
        { prefix: '/a//b', dir: '/abs', list: true, serve: true, recursive: true },
      ],
    },
    {},
    { baseDir: '/srv/bundle' },
  );
  assert.ok(r.ok);
  assert.deepEqual(r.value, [
    { prefix: '/files', dir: '/srv/bundle/out', list: false, serve: false, recursive: false },
    { prefix: '/a/b', dir: '/abs', list: true, serve: true, recursive: true },
  ]);
});

test('expands ${NAME} and ${NAME:-default} from the env passed in', () => {
  const env = { DL: '/data/dl', EMPTY: '' };
  assert.equal(expandEnv('${DL}/x', env).value, '/data/dl/x');
  assert.equal(expandEnv('${MISSING}/x', env).value, '/x');
  assert.equal(expandEnv('${MISSING:-./build/dl}', env).value, './build/dl');
  assert.equal(expandEnv('${EMPTY:-fallback}', env).value, 'fallback');
  assert.equal(expandEnv('${DL:-fallback}', env).value, '/data/dl');
  const r = validateStaticMounts(
    { mounts: [{ prefix: '/files', dir: '${SERVICE_DOWNLOADS_DIR:-build/downloads}' }] },
    { SERVICE_DOWNLOADS_DIR: '/tmp/dl' },
  );
  assert.ok(r.ok);
  assert.equal(r.value[0]!.dir, '/tmp/dl');
  const relative = validateStaticMounts(
    { mounts: [{ prefix: '/files', dir: '${NOPE:-build/downloads}' }] },
    {},
    { baseDir: '/b' },
  );
  assert.ok(relative.ok);
  assert.equal(relative.value[0]!.dir, '/b/build/downloads');
  // Without a baseDir a relative dir resolves against the working directory.
  const cwd = validateStaticMounts({ mounts: [{ prefix: '/x', dir: 'rel' }] }, {});
  assert.ok(cwd.ok);
  assert.equal(cwd.value[0]!.dir, resolve('rel'));
});

test('an empty document means no mounts', () => {
  assert.deepEqual(validateStaticMounts(null, {}), { ok: true, value: [] });
  assert.deepEqual(validateStaticMounts({ mounts: [] }, {}), { ok: true, value: [] });
});

test('returns every problem with a JSON pointer', () => {
  const r = validateStaticMounts(
    { mounts: [{ prefix: '/a' }, { prefix: 3, dir: 'x', list: 'yes' }] },
    {},
  );
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  const paths = r.diagnostics.map((d) => d.path).sort();
  assert.deepEqual(paths, ['/mounts/0', '/mounts/1/list', '/mounts/1/prefix']);
  assert.match(r.diagnostics.find((d) => d.path === '/mounts/0')!.message, /dir/);
  const notObject = validateStaticMounts({ mount: [] }, {});
  assert.ok(!notObject.ok);
  assert.match(notObject.diagnostics[0]!.message, /mounts/);
});

test('rejects duplicate, reserved and root prefixes, bad references and empty dirs', () => {
  const r = validateStaticMounts(
    {
      mounts: [
        { prefix: '/files', dir: 'a' },
        { prefix: 'files/', dir: 'b' },
        { prefix: '/tasks/x', dir: 'c' },
        { prefix: '/', dir: 'd' },
        { prefix: '/e', dir: '${not valid}' },
        { prefix: '/f', dir: '${UNSET}' },
      ],
    },
    {},
  );
  assert.ok(!r.ok);
  const byPath = (p: string) => r.diagnostics.filter((d) => d.path === p).map((d) => d.message);
  assert.match(byPath('/mounts/1/prefix')[0]!, /already declared by \/mounts\/0/);
  assert.match(byPath('/mounts/2/prefix')[0]!, /collides/);
  assert.match(byPath('/mounts/3/prefix')[0]!, /shadow every route/);
  assert.match(byPath('/mounts/4/dir')[0]!, /not a valid variable reference/);
  assert.match(byPath('/mounts/5/dir')[0]!, /empty path/);
});

test('assertStaticMounts throws ERR_SERVER_INVALID_MOUNTS listing the problems', () => {
  assert.throws(
    () => assertStaticMounts({ mounts: [{ prefix: '/tasks', dir: 'x' }] }, {}),
    (err: unknown) =>
      err instanceof ServerError &&
      err.code === 'ERR_SERVER_INVALID_MOUNTS' &&
      err.message.includes('/mounts/0/prefix'),
  );
});
