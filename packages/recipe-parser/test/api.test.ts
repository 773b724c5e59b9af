import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import {
  RecipeError,
  formatDiagnostic,
  fromYaml,
  inputJsonSchema,
  loadTask,
  loadTaskOrThrow,
  parseRecipe,
  taskDefSchema,
  templateRefs,
  toYaml,
  type TaskDef,
} from '../src/index.js';

function parse(body: string, header = ''): TaskDef {
  const text = `task "t"\n${header}${body}\nend\n`;
  const r = parseRecipe(text, 't.task');
  assert.ok(r.ok, r.ok ? '' : r.diagnostics.map((d) => formatDiagnostic(d, text)).join('\n'));
  return r.task;
}

describe('parseRecipe', () => {
  test('click maps to run `action` with action: click and defaults applied', () => {
    const [step] = parse('  click ".name" text "Ann" closest ".row"').flow;
    assert.deepEqual(step!.run, 'action');
    assert.deepEqual(step!.params, {
      action: 'click',
      selector: '.name',
      text: 'Ann',
      closest: '.row',
      match: 'exact',
    });
    assert.deepEqual(step!.pos, { file: 't.task', line: 2, col: 3 });
  });

  test('header lines fill the TaskDef; timeout accepts durations', () => {
    const t = parse(
      '  goto "x"',
      '  pool shop\n  timeout 1.5m\n  transport rest\n  transport sse\n  setup "shop/login"\n',
    );
    assert.equal(t.poolTag, 'shop');
    assert.equal(t.timeoutMs, 90_000);
    assert.deepEqual(t.transports, ['rest', 'sse']);
    assert.equal(t.setupTask, 'shop/login');
    const d = parse('  goto "x"');
    assert.equal(d.poolTag, 'default');
    assert.equal(d.timeoutMs, undefined);
    assert.deepEqual(d.transports, []);
  });

  test('inputs: types, aliases, required, default typed by input type, doc', () => {
    const t = parse(
      '  goto "x"',
      '  input q string required doc "Query"\n  input n integer default 1_000\n  input on boolean default true\n  input j json default { a: [1] }\n  input s string default 5 doc rest of the line\n',
    );
    assert.deepEqual(t.input, {
      q: { type: 'string', required: true, doc: 'Query' },
      n: { type: 'int', required: false, default: 1000 },
      on: { type: 'bool', required: false, default: true },
      j: { type: 'json', required: false, default: { a: [1] } },
      s: { type: 'string', required: false, default: '5', doc: 'rest of the line' },
    });
  });

  test('status sets the next step status; at the end of a block it becomes an emit-event', () => {
    const t = parse(
      '  status "go"\n  goto "x"\n  for-each i in [1]\n    wait 1\n    status "tail"\n  end\n  status "bye"',
    );
    assert.equal(t.flow[0]!.status, 'go');
    assert.deepEqual(t.flow[1]!.do![1]!.params, { kind: 'status', text: 'tail' });
    assert.equal(t.flow[1]!.do![1]!.run, 'emit-event');
    assert.deepEqual(t.flow[2]!.params, { kind: 'status', text: 'bye' });
  });

  test('as, record and path work on any step; extract binds its name', () => {
    const t = parse(
      '  wait until "h1" as w record\n  extract rows from ".r" repeat path "/tmp/r.json"\n    t text\n  end',
    );
    assert.equal(t.flow[0]!.as, 'w');
    assert.equal(t.flow[0]!.record, true);
    assert.equal(t.flow[1]!.as, 'rows');
    assert.equal(t.flow[1]!.params['path'], '/tmp/r.json');
    assert.equal(t.flow[1]!.params['repeat'], true);
    assert.deepEqual(t.flow[1]!.params['fields'], { t: { kind: 'text' } });
  });

  test('numbers: underscores and durations for millisecond parameters; templates stay strings', () => {
    const t = parse('  wait 2s\n  wait 1_500\n  wait "{{d}}"', '  input d int default 5\n');
    assert.deepEqual(
      t.flow.map((s) => s.params['duration']),
      [2000, 1500, '{{d}}'],
    );
  });

  test('every ACTIONS parameter is reachable by name (generic params)', () => {
    const t = parse(
      '  screenshot s selector "#m" fullPage true format jpeg quality 70 path "/tmp/x.jpg"',
    );
    assert.deepEqual(t.flow[0]!.params, {
      selector: '#m',
      fullPage: true,
      format: 'jpeg',
      quality: 70,
      path: '/tmp/x.jpg',
    });
  });

  test('warnings for unknown {{names}}, silenced by inputs, bindings, loop variables and knownNames', () => {
    const text =
      'task "t"\n  input a string\n  set b "{{a}}"\n  for-each x in "{{b}}"\n    emit "{{x}} {{x_index}}"\n  end\n  goto "{{SECRET}}/{{nope.deep|or:z}}"\nend\n';
    const r = parseRecipe(text, 't.task');
    assert.ok(r.ok);
    assert.deepEqual(
      r.warnings.map((w) => [w.code, w.line, w.col, w.message.slice(0, 12)]),
      [
        ['WARN_RECIPE_UNKNOWN_NAME', 7, 9, '`{{SECRET}}`'],
        ['WARN_RECIPE_UNKNOWN_NAME', 7, 20, '`{{nope}}` i'],
      ],
    );
    const known = parseRecipe(text, 't.task', { knownNames: ['SECRET', 'nope'] });
    assert.ok(known.ok);
    assert.equal(known.warnings.length, 0);
  });

  test('all errors are reported at once, sorted, with codes', () => {
    const r = parseRecipe('task "t"\n  clik "#a"\n  wait soon\n  input q strng\n', 't.task');
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(
      r.diagnostics.map((d) => [d.line, d.col, d.code]),
      [
        [2, 3, 'ERR_RECIPE_INVALID'],
        [3, 8, 'ERR_RECIPE_INVALID'],
        [4, 11, 'ERR_RECIPE_INVALID'],
        [4, 16, 'ERR_RECIPE_SYNTAX'],
      ],
    );
  });
});

describe('formatDiagnostic', () => {
  test('file:line:col: message, the source line and a caret under the column', () => {
    const text = 'task "t"\n\tclik "#a"\nend\n';
    const r = parseRecipe(text, 'tasks/t.task');
    assert.ok(!r.ok);
    assert.equal(
      formatDiagnostic(r.diagnostics[0]!, text),
      'tasks/t.task:2:2: unknown action `clik` — did you mean `click`?\n\tclik "#a"\n\t^',
    );
    assert.equal(
      formatDiagnostic(r.diagnostics[0]!),
      'tasks/t.task:2:2: unknown action `clik` — did you mean `click`?',
    );
  });
});

describe('loadTask and loadTaskOrThrow', () => {
  test('dispatch on the extension', () => {
    assert.ok(loadTask('task "a"\n  wait 1\nend\n', 'a.task').ok);
    assert.ok(loadTask('task "a"\n  wait 1\nend\n', 'a.webtask').ok);
    assert.ok(loadTask('name: a\nflow: [{ run: wait, params: { duration: 1 } }]\n', 'a.yml').ok);
    const other = loadTask('x', 'a.txt');
    assert.ok(!other.ok && other.diagnostics[0]!.code === 'ERR_RECIPE_INVALID');
  });

  test('throws RecipeError with every diagnostic and the right code', () => {
    assert.throws(
      () => loadTaskOrThrow('task "a"\n  goto\n  wait "x\nend\n', 'a.task'),
      (err: unknown) =>
        err instanceof RecipeError &&
        err.code === 'ERR_RECIPE_SYNTAX' &&
        err.diagnostics.length === 2 &&
        err.message.startsWith('a.task:2:3: `goto` is missing its required parameter `url`'),
    );
    assert.throws(
      () => loadTaskOrThrow('task "a"\n  goto\nend\n', 'a.task'),
      (err: unknown) => err instanceof RecipeError && err.code === 'ERR_RECIPE_INVALID',
    );
    assert.equal(loadTaskOrThrow('task "a"\n  wait 1\nend\n', 'a.task').name, 'a');
  });
});

describe('fromYaml', () => {
  test('numeric strings stay strings; aliases normalise; set takes its name from `as`', () => {
    const r = fromYaml(
      'name: y\ntimeoutMs: "30_000"\nflow:\n  - run: wait\n    params: { duration: "1_500" }\n  - run: wait-for\n    params: { selector: a, timeout: 5 }\n  - run: set\n    as: rows\n    params: { value: [1] }\n',
      'y.yaml',
    );
    assert.ok(r.ok);
    assert.equal(r.task.timeoutMs, 30000);
    assert.equal(r.task.flow[0]!.params['duration'], '1_500');
    assert.deepEqual(r.task.flow[1]!.params, { selector: 'a', timeoutMs: 5 });
    assert.deepEqual(r.task.flow[2]!.params, { name: 'rows', value: [1] });
    assert.deepEqual(r.task.flow[1]!.pos, { file: 'y.yaml', line: 6, col: 5 });
  });

  test('unknown fields and parameters are warnings, not errors', () => {
    const r = fromYaml(
      'name: y\ndescription: hi\nflow:\n  - run: goto\n    parms: {}\n    params: { url: x, extra: 1 }\n',
      'y.yaml',
    );
    assert.ok(r.ok);
    assert.deepEqual(
      r.warnings.map((w) => `${w.line}:${w.col}: ${w.message}`),
      [
        '2:1: unknown TaskDef field `description` is ignored',
        '5:5: unknown step field `parms` is ignored — did you mean `params`?',
        '6:23: unknown parameter `extra` for `goto` is passed through unchanged',
      ],
    );
    assert.equal(r.task.flow[0]!.params['extra'], 1);
  });

  test('toYaml writes webtasks field names and no positions', () => {
    const t = parse(
      '  status "s"\n  goto "u" as g record',
      '  pool p\n  timeout 10\n  transport sse\n  setup "x"\n',
    );
    const yaml = toYaml(t);
    assert.match(
      yaml,
      /^name: t\npoolTag: p\ntransports:\n {2}- sse\ntimeoutMs: 10\ninput: \{\}\nsetupTask: x\nflow:\n {2}- run: goto\n {4}as: g\n {4}status: s\n {4}record: true\n {4}params:\n {6}url: u\n$/,
    );
    assert.doesNotMatch(yaml, /pos|source/);
  });
});

describe('schemas and templateRefs', () => {
  test('schema/taskdef.schema.json is the exported taskDefSchema', () => {
    const file = JSON.parse(
      readFileSync(new URL('../schema/taskdef.schema.json', import.meta.url), 'utf8'),
    );
    assert.deepEqual(file, JSON.parse(JSON.stringify(taskDefSchema)));
    const validate = new Ajv({ strict: false }).compile(taskDefSchema);
    assert.equal(validate({ name: 'x', flow: [{ run: 'goto', params: { url: 'u' } }] }), true);
    assert.equal(validate({ name: 'x', flow: [{ run: 'clik' }] }), false);
  });

  test('inputJsonSchema validates and coerces request bodies with ajv', () => {
    const t = parse(
      '  goto "x"',
      '  input q string required\n  input n int default 3\n  input f float\n  input b bool\n  input j json doc "any"\n',
    );
    const schema = inputJsonSchema(t);
    assert.deepEqual(schema.required, ['q']);
    assert.deepEqual(schema.properties['j'], { description: 'any' });
    const validate = new Ajv({ coerceTypes: true, useDefaults: true }).compile(schema);
    const body: Record<string, unknown> = { q: 'x', f: '1.5', b: 'true', extra: 1 };
    assert.equal(validate(body), true);
    assert.deepEqual(body, { q: 'x', n: 3, f: 1.5, b: true, extra: 1 });
    assert.equal(validate({ n: 1 }), false);
    assert.equal(validate({ q: 'x', n: 'many' }), false);
  });

  test('templateRefs returns root names in order, deduplicated', () => {
    assert.deepEqual(templateRefs('{{a}} {{ b.c.0 }} {{d|or:x}} {{a}}'), ['a', 'b', 'd']);
    assert.deepEqual(templateRefs({ x: ['{{e}}', { y: '{{f.g}}' }], n: 1 }), ['e', 'f']);
    assert.deepEqual(templateRefs('no refs {single}'), []);
  });
});
