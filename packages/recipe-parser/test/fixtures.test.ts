import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { formatDiagnostic, loadTask } from '../src/index.js';
import { invalidDir, readFixtures, validDir } from './helpers/fixtures.js';

const valid = readFixtures(validDir);
const invalid = readFixtures(invalidDir);
const expected = JSON.parse(readFileSync(`${invalidDir}expect.json`, 'utf8')) as Record<
  string,
  string[]
>;

describe('valid fixtures', () => {
  test('there are at least 60, recipes and YAML TaskDefs', () => {
    assert.ok(valid.length >= 60, `only ${valid.length}`);
    assert.ok(valid.filter((f) => /\.ya?ml$/.test(f.name)).length >= 5);
    assert.ok(valid.filter((f) => f.name.endsWith('.webtask')).length >= 4);
  });
  for (const f of valid) {
    test(f.name, () => {
      const r = loadTask(f.text, f.name);
      assert.ok(r.ok, r.ok ? '' : r.diagnostics.map((d) => formatDiagnostic(d, f.text)).join('\n'));
      assert.ok(r.task.name.length > 0);
      assert.ok(r.task.flow.length > 0);
      const walk = (steps: typeof r.task.flow): void => {
        for (const s of steps) {
          assert.ok(s.pos && s.pos.line >= 1 && s.pos.col >= 1, `step ${s.run} has a position`);
          assert.equal(s.pos.file, f.name);
          if (s.do) walk(s.do);
        }
      };
      walk(r.task.flow);
    });
  }
});

describe('invalid fixtures', () => {
  test('there are at least 40, each with its expected diagnostics', () => {
    assert.ok(invalid.length >= 40, `only ${invalid.length}`);
    assert.deepEqual(
      Object.keys(expected).sort(),
      invalid.map((f) => f.name),
    );
  });
  for (const f of invalid) {
    test(f.name, () => {
      const r = loadTask(f.text, f.name);
      assert.equal(r.ok, false, 'must not load');
      if (r.ok) return;
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => `${d.line}:${d.col}: ${d.message}`),
        expected[f.name],
      );
      for (const d of errors) {
        assert.ok(d.code === 'ERR_RECIPE_SYNTAX' || d.code === 'ERR_RECIPE_INVALID');
        assert.equal(d.file, f.name);
        assert.ok(formatDiagnostic(d).startsWith(`${f.name}:${d.line}:${d.col}: `));
      }
    });
  }
});
