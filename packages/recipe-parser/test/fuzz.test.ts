import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromYaml, parseRecipe, type LoadResult } from '../src/index.js';
import { readFixtures, validDir } from './helpers/fixtures.js';

const fixtures = readFixtures(validDir);
const recipes = fixtures.filter((f) => !/\.ya?ml$/.test(f.name)).map((f) => f.text);
const yamls = fixtures.filter((f) => /\.ya?ml$/.test(f.name)).map((f) => f.text);

// Characters that matter to the lexer and flow values, plus random unicode.
const interesting = fc.oneof(
  fc.constantFrom(
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '#',
    ' ',
    '\t',
    '\n',
    '\r',
    'end',
    'task',
    '{{',
    '}}',
    "'",
  ),
  fc.string({ maxLength: 4 }),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
);

type Mutation = (s: string) => string;
const at = (s: string, r: number): number => (s.length === 0 ? 0 : Math.floor(r * s.length));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // delete a span of characters
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 8 })).map(
    ([r, n]) =>
      (s: string) =>
        s.slice(0, at(s, r)) + s.slice(at(s, r) + n),
  ),
  // insert interesting text
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), interesting).map(
    ([r, ins]) =>
      (s: string) =>
        s.slice(0, at(s, r)) + ins + s.slice(at(s, r)),
  ),
  // swap two characters
  fc
    .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([a, b]) => (s: string) => {
      const chars = [...s];
      const i = at(s, a) % Math.max(1, chars.length);
      const j = at(s, b) % Math.max(1, chars.length);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
      return chars.join('');
    }),
  // delete, duplicate or swap whole lines
  fc
    .tuple(fc.constantFrom('delete', 'duplicate', 'swap'), fc.nat(), fc.nat())
    .map(([op, a, b]) => (s: string) => {
      const lines = s.split('\n');
      const i = a % lines.length;
      const j = b % lines.length;
      if (op === 'delete') lines.splice(i, 1);
      else if (op === 'duplicate') lines.splice(i, 0, lines[i]!);
      else [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return lines.join('\n');
    }),
  // delete or swap whitespace-separated tokens
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([a, b, del]) => (s: string) => {
    const toks = s.split(/( +)/);
    const i = a % toks.length;
    const j = b % toks.length;
    if (del) toks.splice(i, 1);
    else [toks[i], toks[j]] = [toks[j]!, toks[i]!];
    return toks.join('');
  }),
);

function checkResult(r: LoadResult): void {
  assert.equal(typeof r.ok, 'boolean');
  const diags = r.ok ? r.warnings : r.diagnostics;
  if (!r.ok)
    assert.ok(
      r.diagnostics.some((d) => d.severity === 'error'),
      'a failed load has an error',
    );
  for (const d of diags) {
    assert.ok(Number.isInteger(d.line) && d.line >= 1, `line ${d.line}`);
    assert.ok(Number.isInteger(d.col) && d.col >= 1, `col ${d.col}`);
    assert.ok(d.message.length > 0);
    assert.ok(!d.message.startsWith('internal'), d.message);
  }
}

/** Rethrow with the mutated text, since mutations are functions fast-check cannot print. */
function withInput(text: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- input ---\n${text}`, {
      cause: err,
    });
  }
}

function timed<T>(fn: () => T): T {
  const start = performance.now();
  const out = fn();
  // A hang detector, not a speed goal (those live in bench/parse.bench.ts).
  assert.ok(performance.now() - start < 2000, 'one parse must not hang');
  return out;
}

test('fuzz: mutated recipes never throw and always give positioned diagnostics', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...recipes),
      fc.array(mutation, { minLength: 1, maxLength: 5 }),
      (text, muts) => {
        const mutated = muts.reduce((s, m) => m(s), text);
        withInput(mutated, () => checkResult(timed(() => parseRecipe(mutated, 'fuzz.task'))));
      },
    ),
    { numRuns: 4000 },
  );
});

test('fuzz: mutated YAML TaskDefs never throw and always give positioned diagnostics', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...yamls),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      (text, muts) => {
        const mutated = muts.reduce((s, m) => m(s), text);
        withInput(mutated, () => checkResult(timed(() => fromYaml(mutated, 'fuzz.yaml'))));
      },
    ),
    { numRuns: 1500 },
  );
});

test('fuzz: arbitrary text never throws', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (s) => {
      checkResult(timed(() => parseRecipe(`task "x"\n${s}\nend`, 'any.task')));
      checkResult(timed(() => parseRecipe(s, 'raw.task')));
    }),
    { numRuns: 1500 },
  );
});

test('pathological input finishes: a 2 MB line and deep flow nesting', () => {
  const long = `task "x"\n  set a "${'a'.repeat(2_000_000)}"\nend\n`;
  const r = timed(() => parseRecipe(long, 'long.task'));
  assert.ok(r.ok);
  const deep = `task "x"\n  set a ${'['.repeat(5000)}${']'.repeat(5000)}\nend\n`;
  const d = timed(() => parseRecipe(deep, 'deep.task'));
  assert.equal(d.ok, false);
  if (!d.ok) assert.match(d.diagnostics[0]!.message, /nested too deeply/);
});
