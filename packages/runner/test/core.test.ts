// Templating, coercion, input binding, path safety, events: no browser needed.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  Deadline,
  type RunnerError,
  bindInputs,
  cleanBundlePath,
  coerceParam,
  coerceParams,
  noopPublisher,
  renderRecords,
  renderReturnValue,
  renderString,
  renderValue,
  resolveSafePath,
  toSseEvent,
} from '../src/index.js';

const scope = {
  bindings: {
    q: 'cats',
    n: 3,
    rows: [{ a: 1 }, { a: 2 }],
    chat: { peer: 'Ann', meta: { id: 7 } },
    empty: '',
    flag: false,
  },
  env: { TOKEN: 's3cret', q: 'from-env' },
};

describe('templating', () => {
  it('interpolates bindings, walks paths, falls back to env and or:', () => {
    assert.equal(renderString('q={{q}}&n={{ n }}', scope), 'q=cats&n=3');
    assert.equal(renderString('{{chat.peer}} #{{chat.meta.id}} {{rows.1.a}}', scope), 'Ann #7 2');
    assert.equal(renderString('Bearer {{TOKEN}}', scope), 'Bearer s3cret');
    assert.equal(
      renderString('{{missing|or:guest}} {{empty|or:x}} {{q|or:y}}', scope),
      'guest x cats',
    );
    assert.equal(renderString('[{{missing}}] [{{chat.nope.deeper}}]', scope), '[] []');
    assert.equal(renderString('{{rows.length}} rows', scope), '2 rows');
    assert.equal(renderString('{{rows}}', scope), '[{"a":1},{"a":2}]');
  });

  it('gives a single-token param its raw value; strings and embedded tokens stay strings', () => {
    assert.deepEqual(renderValue('{{rows}}', scope), [{ a: 1 }, { a: 2 }]);
    assert.equal(renderValue(' {{n}} ', scope), 3);
    assert.equal(renderValue('{{flag}}', scope), false);
    assert.equal(renderValue('{{q}}', scope), 'cats');
    assert.equal(renderValue('id-{{n}}', scope), 'id-3');
    assert.deepEqual(renderValue({ h: ['{{q}}', 1, null], m: { x: '{{chat.meta}}' } }, scope), {
      h: ['cats', 1, null],
      m: { x: { id: 7 } },
    });
  });

  it('return: exactly one token keeps its JSON type (strings too); otherwise interpolates', () => {
    assert.deepEqual(renderReturnValue('{{rows}}', scope), [{ a: 1 }, { a: 2 }]);
    assert.equal(renderReturnValue('{{q}}', scope), 'cats');
    assert.equal(renderReturnValue('{{nothing}}', scope), null);
    assert.equal(renderReturnValue('got {{n}}', scope), 'got 3');
    assert.deepEqual(renderReturnValue({ total: '{{n}}' }, scope), { total: 3 });
  });
});

describe('parameter coercion', () => {
  it('coerces templated strings to the declared type', () => {
    assert.equal(coerceParam('wait', 'duration', { type: 'int' }, '1_500'), 1500);
    assert.equal(coerceParam('s', 'b', { type: 'bool' }, 'true'), true);
    assert.equal(coerceParam('s', 'b', { type: 'bool' }, 'false'), false);
    assert.equal(coerceParam('s', 'x', { type: 'number' }, '2.5'), 2.5);
    assert.deepEqual(coerceParam('s', 'l', { type: 'list' }, '["a"]'), ['a']);
    assert.equal(coerceParam('s', 's', { type: 'string' }, 12), '12');
  });

  it('fails naming step and param', () => {
    assert.throws(
      () => coerceParam('wait', 'duration', { type: 'int' }, 'soon'),
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_INVALID_PARAM' &&
        err.message === 'step "wait": param "duration": expected an integer, got "soon"',
    );
    assert.throws(() => coerceParam('s', 'b', { type: 'bool' }, 'maybe'), {
      code: 'ERR_RUNNER_INVALID_PARAM',
    });
    assert.throws(
      () => coerceParams('screenshot', 'screenshot', { format: 'gif' }),
      (err: RunnerError) =>
        err.code === 'ERR_RUNNER_INVALID_PARAM' && err.message.includes('one of png, jpeg'),
    );
  });

  it('applies catalogue defaults and checks required params', () => {
    assert.equal(coerceParams('wait-for', 'wait-for', { selector: 'a' }).timeoutMs, 10000);
    assert.throws(() => coerceParams('goto', 'goto', {}), {
      code: 'ERR_RUNNER_INVALID_PARAM',
      message: 'step "goto": missing required param "url"',
    });
  });
});

describe('input binding', () => {
  const task = {
    input: {
      q: { type: 'string', required: true },
      page: { type: 'int', required: false, default: 1 },
      ads: { type: 'bool', required: false, default: false },
      ratio: { type: 'float', required: false },
      opts: { type: 'json', required: false },
      z: { type: 'string', required: true },
    },
  } as const;

  it('reports missing required inputs in declaration order', () => {
    assert.throws(() => bindInputs(task, {}), {
      code: 'ERR_RUNNER_MISSING_INPUT',
      message: 'missing required input(s): q, z',
    });
    assert.throws(() => bindInputs(task, { q: '', z: 'x' }), {
      message: 'missing required input(s): q',
    });
  });

  it('coerces, applies defaults and passes unmodelled inputs through', () => {
    const b = bindInputs(task, {
      q: 'x',
      z: 'y',
      page: '3',
      ads: 'true',
      ratio: '0.5',
      opts: { a: [1] },
      extra: 9,
    });
    assert.deepEqual(b, {
      q: 'x',
      z: 'y',
      page: 3,
      ads: true,
      ratio: 0.5,
      opts: { a: [1] },
      extra: 9,
    });
    const d = bindInputs(task, { q: 'x', z: 'y' });
    assert.equal(d.page, 1);
    assert.equal(d.ads, false);
  });

  it('names an input of the wrong type', () => {
    assert.throws(() => bindInputs(task, { q: 'x', z: 'y', page: 'many' }), {
      code: 'ERR_RUNNER_INVALID_INPUT',
      message: 'input "page": expected int, got "many"',
    });
    assert.throws(() => bindInputs(task, [1]), { code: 'ERR_RUNNER_INVALID_INPUT' });
  });
});

describe('path safety', () => {
  it('resolves relative paths under the base and refuses escapes', async () => {
    const root = await mkdtemp(join(tmpdir(), 'runner-paths-'));
    try {
      const base = join(root, 'dl', 'w1');
      const roots = { base, allowed: [base, join(root, 'dl'), join(root, 'rec')] };
      assert.equal(resolveSafePath('pdf', 'path', 'a/b.pdf', roots), join(base, 'a', 'b.pdf'));
      assert.equal(
        resolveSafePath('pdf', 'path', join(root, 'rec', 'x.gif'), roots),
        join(root, 'rec', 'x.gif'),
      );
      assert.throws(
        () => resolveSafePath('pdf', 'path', '../../../etc/passwd', roots),
        (err: RunnerError) =>
          err.code === 'ERR_RUNNER_PATH_ESCAPE' &&
          err.message.startsWith(
            'step "pdf": path "../../../etc/passwd" escapes the allowed directories',
          ),
      );
      assert.throws(() => resolveSafePath('pdf', 'path', '/tmp/x.pdf', roots), {
        code: 'ERR_RUNNER_PATH_ESCAPE',
      });
      await mkdir(base, { recursive: true });
      await symlink(tmpdir(), join(base, 'link'));
      assert.throws(() => resolveSafePath('pdf', 'path', 'link/x.pdf', roots), {
        code: 'ERR_RUNNER_PATH_ESCAPE',
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps bundle module paths inside their prefix', () => {
    assert.equal(cleanBundlePath('scripts', 'demo/x.js'), 'scripts/demo/x.js');
    assert.equal(cleanBundlePath('scripts', 'a/../b'), 'scripts/b');
    assert.equal(cleanBundlePath('scripts', '../tasks/t.task'), undefined);
  });
});

describe('events and deadlines', () => {
  it('formats events in the SSE form', () => {
    assert.deepEqual(toSseEvent({ kind: 'progress', text: 'half', data: { fraction: 0.5 } }), {
      event: 'progress',
      data: { text: 'half', data: { fraction: 0.5 } },
    });
    assert.deepEqual(toSseEvent({ kind: 'error', payload: { message: 'boom' } }), {
      event: 'error',
      data: { message: 'boom' },
    });
    assert.equal(noopPublisher.publish({ kind: 'status', text: 'x' }), undefined);
  });

  it('fails a call that never settles with the spec deadline message', async () => {
    const deadline = new Deadline(50);
    await assert.rejects(
      deadline.run('js', () => new Promise(() => undefined)),
      { code: 'ERR_RUNNER_DEADLINE', message: 'step "js": context deadline exceeded' },
    );
    assert.equal(deadline.abandonedCall, true);
  });

  it('stops at once when the signal aborts', async () => {
    const ac = new AbortController();
    const deadline = new Deadline(60000, ac.signal);
    const pending = deadline.run('wait', () => new Promise(() => undefined));
    ac.abort();
    await assert.rejects(pending, { code: 'ERR_RUNNER_ABORTED' });
  });
});

describe('export rendering', () => {
  const rows = [
    { b: 'x,y', a: 1 },
    { a: 2, c: 'he said "hi"' },
  ];
  it('renders csv, ndjson and markdown', () => {
    assert.equal(renderRecords('csv', rows), 'a,b,c\n1,"x,y",\n2,,"he said ""hi"""\n');
    assert.equal(
      renderRecords('ndjson', rows),
      '{"b":"x,y","a":1}\n{"a":2,"c":"he said \\"hi\\""}\n',
    );
    assert.equal(renderRecords('md', [{ a: 'p|q' }], ['a']), '| a |\n| --- |\n| p\\|q |\n');
  });
});
