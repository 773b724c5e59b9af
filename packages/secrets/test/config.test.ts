import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretsConfigSchema, validateSecretsConfig } from '../src/index.js';

test('defaults are applied to a minimal declaration', () => {
  const result = validateSecretsConfig({ secrets: [{ name: 'API_KEY' }] });
  assert.deepEqual(result, {
    ok: true,
    value: [
      {
        name: 'API_KEY',
        description: '',
        required: false,
        sensitive: false,
        default: '',
        sources: ['env', 'arg', 'prompt'],
      },
    ],
  });
});

test('the design.md example is accepted as written', () => {
  const result = validateSecretsConfig({
    secrets: [
      {
        name: 'SHOP_PASSWORD',
        description: 'Shop password',
        required: true,
        sensitive: true,
        sources: ['env', 'arg', 'prompt'],
      },
      { name: 'API_KEY', required: false, default: '', sources: ['env', 'arg'] },
    ],
  });
  assert.ok(result.ok);
  assert.equal(result.value[0]!.sensitive, true);
  assert.deepEqual(result.value[1]!.sources, ['env', 'arg']);
});

test('YAML scalars read as numbers or booleans become strings', () => {
  const result = validateSecretsConfig({
    secrets: [{ name: 'PIN', default: 1234, description: true }],
  });
  assert.ok(result.ok);
  assert.equal(result.value[0]!.default, '1234');
  assert.equal(result.value[0]!.description, 'true');
});

test('an empty file or a missing list means no secrets', () => {
  assert.deepEqual(validateSecretsConfig(null), { ok: true, value: [] });
  assert.deepEqual(validateSecretsConfig({}), { ok: true, value: [] });
  assert.deepEqual(validateSecretsConfig({ secrets: null }), { ok: true, value: [] });
});

test('every problem is reported with its path and what is wrong', () => {
  const result = validateSecretsConfig({
    secrets: [
      { name: 'A', sources: ['env', 'file'], sensitve: true },
      { name: '1BAD-NAME' },
      { description: 'no name', required: 'yes' },
      'not a mapping',
      { name: 'B', sources: ['arg', 'arg'] },
    ],
    extra: 1,
  });
  assert.equal(result.ok, false);
  const byPath = new Map(result.diagnostics.map((d) => [d.path, d.message]));
  assert.match(byPath.get('/extra')!, /unknown field "extra"/);
  assert.match(byPath.get('/secrets/0/sensitve')!, /unknown field "sensitve"/);
  assert.match(
    byPath.get('/secrets/0/sources/1')!,
    /unknown source "file"; expected one of env, arg, prompt/,
  );
  assert.match(
    byPath.get('/secrets/1/name')!,
    /"1BAD-NAME" is not a valid environment variable name/,
  );
  assert.match(byPath.get('/secrets/2')!, /missing required field "name"/);
  assert.match(byPath.get('/secrets/2/required')!, /must be true or false, got "yes"/);
  assert.match(byPath.get('/secrets/3')!, /must be a mapping, got "not a mapping"/);
  assert.match(byPath.get('/secrets/4/sources')!, /source listed twice/);
  assert.equal(result.diagnostics.length, 8);
});

test('the whole document must be a mapping', () => {
  const result = validateSecretsConfig(['SHOP_PASSWORD']);
  assert.equal(result.ok, false);
  assert.deepEqual(result.diagnostics, [
    { path: '', message: 'must be a mapping or empty, got a list' },
  ]);
});

test('a name declared twice is rejected', () => {
  const result = validateSecretsConfig({ secrets: [{ name: 'TOKEN' }, { name: 'TOKEN' }] });
  assert.equal(result.ok, false);
  assert.deepEqual(result.diagnostics, [
    { path: '/secrets/1/name', message: 'duplicate secret "TOKEN" (first declared at /secrets/0)' },
  ]);
});

test('the input is not modified and the schema is exported', () => {
  const input = { secrets: [{ name: 'X' }] };
  const copy = structuredClone(input);
  validateSecretsConfig(input);
  assert.deepEqual(input, copy);
  assert.deepEqual(secretsConfigSchema.properties.secrets.items.required, ['name']);
  assert.deepEqual(secretsConfigSchema.properties.secrets.items.properties.sources.default, [
    'env',
    'arg',
    'prompt',
  ]);
});
