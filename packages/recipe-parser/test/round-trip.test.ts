import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ACTIONS, fromYaml, loadTask, parseRecipe, toYaml } from '../src/index.js';
import { readFixtures, stripPositions, validDir } from './helpers/fixtures.js';

const valid = readFixtures(validDir);
const PARAM_NAMES = new Set(Object.values(ACTIONS).flatMap((a) => Object.keys(a.params)));

describe('round trip: fromYaml(toYaml(task)) deep-equals task (ignoring pos and source)', () => {
  for (const f of valid) {
    test(f.name, () => {
      const r = loadTask(f.text, f.name);
      assert.ok(r.ok);
      const yaml = toYaml(r.task);
      const back = fromYaml(yaml, 'round-trip.yaml');
      assert.ok(back.ok, back.ok ? '' : JSON.stringify(back.diagnostics));
      assert.deepEqual(stripPositions(back.task), stripPositions(r.task));
      // Deterministic output: the same task gives the same bytes.
      assert.equal(toYaml(back.task), yaml);
    });
  }
});

// Generated recipes: random sequences of step lines (nested blocks included).
const str = fc.stringMatching(/^[a-zA-Z0-9 ./#:_{}'-]{0,12}$/);
const quoted = str.map((s) => `"${s}"`);
const ident = fc
  .stringMatching(/^[a-z][a-z0-9_]{0,6}$/)
  .filter((s) => !['as', 'record', 'path', 'from'].includes(s) && !PARAM_NAMES.has(s));
const num = fc.integer({ min: 0, max: 100000 });

const simpleStep: fc.Arbitrary<string> = fc.oneof(
  quoted.map((u) => `goto ${u}`),
  num.map((n) => `wait ${n}`),
  fc.tuple(quoted, num).map(([s, n]) => `wait until ${s} timeout ${n}`),
  fc.tuple(quoted, quoted).map(([s, k]) => `sendkeys ${s} keys ${k}`),
  fc
    .tuple(quoted, quoted, fc.constantFrom('exact', 'contains'))
    .map(([s, t, m]) => `click ${s} text ${t} match ${m}`),
  fc.tuple(ident, quoted).map(([n, s]) => `js ${n} script ${s}`),
  fc.tuple(ident, quoted).map(([n, v]) => `set ${n} ${v}`),
  fc.tuple(ident, fc.boolean()).map(([n, full]) => `screenshot ${n} fullPage ${full}`),
  fc
    .tuple(fc.constantFrom('progress', 'status', 'note'), quoted, num)
    .map(([k, t, n]) => `emit ${k} ${t} data { n: ${n}, list: [a, "b"] }`),
  quoted.map((t) => `status ${t}`),
  quoted.map((t) => `return ${t}`),
  fc
    .tuple(ident, quoted)
    .map(
      ([n, s]) => `extract ${n} from ${s} repeat\n  f text ${s} trim\n  g attr href on "a"\nend`,
    ),
);

const step: fc.Arbitrary<string> = fc.letrec<{ step: string }>((tie) => ({
  step: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    simpleStep,
    fc
      .tuple(ident, fc.array(tie('step'), { maxLength: 3 }))
      .map(([n, xs]) => `for-each ${n} in "{{xs}}"\n${xs.join('\n')}\nend`),
    fc
      .tuple(ident, fc.array(tie('step'), { maxLength: 3 }))
      .map(([n, xs]) => `record ${n} format gif fps 2\n${xs.join('\n')}\nend`),
    fc
      .array(tie('step'), { maxLength: 3 })
      .map((xs) => `loop until js "return true" max 2\n${xs.join('\n')}\nend`),
  ),
})).step;

test('round trip holds for generated recipes (property)', () => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
      const text = `task "gen/x"\n  timeout 5s\n  transport sse\n  input xs json default [1]\n${steps.join('\n')}\nend\n`;
      const r = parseRecipe(text, 'gen.task');
      assert.ok(r.ok, r.ok ? '' : `${text}\n${JSON.stringify(r.diagnostics)}`);
      const back = fromYaml(toYaml(r.task), 'gen.yaml');
      assert.ok(back.ok);
      assert.deepEqual(stripPositions(back.task), stripPositions(r.task));
    }),
    { numRuns: 300 },
  );
});
