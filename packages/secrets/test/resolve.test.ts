import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  SecretsError,
  formatAudit,
  publishSecrets,
  resolveSecrets,
  validateSecretsConfig,
  type PromptFn,
  type SecretDeclaration,
  type SecretQuestion,
} from '../src/index.js';

function decls(secrets: unknown[]): SecretDeclaration[] {
  const result = validateSecretsConfig({ secrets });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.value;
}

function scriptedPrompt(answers: Record<string, string>) {
  const asked: SecretQuestion[] = [];
  const prompt: PromptFn = (question) => {
    asked.push(question);
    return Promise.resolve(answers[question.name] ?? '');
  };
  return { prompt, asked };
}

const noPrompt: PromptFn = (q) => Promise.reject(new Error(`unexpected prompt for ${q.name}`));

test('env source reads env[NAME]', async () => {
  const r = await resolveSecrets(decls([{ name: 'TOKEN', sources: ['env'] }]), {
    env: { TOKEN: 'from-env' },
    argv: [],
    isTTY: false,
  });
  assert.deepEqual(r.values, { TOKEN: 'from-env' });
  assert.deepEqual(r.audit, [
    { name: 'TOKEN', source: 'env', sensitive: false, value: 'from-env' },
  ]);
});

test('arg source reads --NAME=value, the last one winning, and stops at --', async () => {
  const d = decls([
    { name: 'TOKEN', sources: ['arg'] },
    { name: 'OTHER', sources: ['arg'] },
  ]);
  const r = await resolveSecrets(d, {
    env: {},
    argv: ['serve', '--TOKEN=first', '--verbose', '--TOKEN=a=b=c', '--', '--OTHER=ignored'],
    isTTY: false,
  });
  assert.deepEqual(r.values, { TOKEN: 'a=b=c' });
  assert.equal(r.audit[1]!.source, 'unresolved');
});

test('a bare --NAME value is not read, and the error says why', async () => {
  const d = decls([{ name: 'TOKEN', required: true, sources: ['arg'] }]);
  await assert.rejects(
    resolveSecrets(d, { env: {}, argv: ['--TOKEN', 'value'], isTTY: false }),
    (err: SecretsError) => {
      assert.equal(err.code, 'ERR_SECRETS_REQUIRED');
      assert.match(err.message, /--TOKEN was given without "=<value>"/);
      return true;
    },
  );
});

test('prompt source asks with the description and silence flag', async () => {
  const { prompt, asked } = scriptedPrompt({ PW: 'typed' });
  const r = await resolveSecrets(
    decls([{ name: 'PW', description: 'Shop password', sensitive: true, sources: ['prompt'] }]),
    { env: {}, argv: [], isTTY: true, prompt },
  );
  assert.deepEqual(r.values, { PW: 'typed' });
  assert.deepEqual(asked, [
    { name: 'PW', description: 'Shop password', sensitive: true, message: 'Shop password (PW)' },
  ]);
  assert.deepEqual(r.audit, [{ name: 'PW', source: 'prompt', sensitive: true }]);
  assert.deepEqual(r.sensitiveValues, ['typed']);
});

test('sources [env, arg] prefer env; [arg, env] prefer arg', async () => {
  const options = { env: { T: 'env-value' }, argv: ['--T=arg-value'], isTTY: false };
  const envFirst = await resolveSecrets(decls([{ name: 'T', sources: ['env', 'arg'] }]), options);
  assert.equal(envFirst.values.T, 'env-value');
  assert.equal(envFirst.audit[0]!.source, 'env');
  const argFirst = await resolveSecrets(decls([{ name: 'T', sources: ['arg', 'env'] }]), options);
  assert.equal(argFirst.values.T, 'arg-value');
  assert.equal(argFirst.audit[0]!.source, 'arg');
});

test('an empty value does not count: the next source is tried', async () => {
  const { prompt, asked } = scriptedPrompt({ T: 'from-prompt' });
  const r = await resolveSecrets(decls([{ name: 'T' }]), {
    env: { T: '' },
    argv: ['--T='],
    isTTY: true,
    prompt,
  });
  assert.equal(r.values.T, 'from-prompt');
  assert.equal(asked.length, 1);
});

test('the prompt is not shown when an earlier source resolves the secret', async () => {
  const r = await resolveSecrets(decls([{ name: 'T' }]), {
    env: { T: 'x' },
    argv: [],
    isTTY: true,
    prompt: noPrompt,
  });
  assert.equal(r.values.T, 'x');
});

test('prompt before env when declared so', async () => {
  const { prompt } = scriptedPrompt({ T: 'from-prompt' });
  const r = await resolveSecrets(decls([{ name: 'T', sources: ['prompt', 'env'] }]), {
    env: { T: 'from-env' },
    argv: [],
    isTTY: true,
    prompt,
  });
  assert.equal(r.values.T, 'from-prompt');
});

test('the prompt is skipped without a terminal', async () => {
  const { prompt, asked } = scriptedPrompt({ T: 'never' });
  const r = await resolveSecrets(decls([{ name: 'T', default: 'fallback' }]), {
    env: {},
    argv: [],
    isTTY: false,
    prompt,
  });
  assert.equal(asked.length, 0);
  assert.equal(r.values.T, 'fallback');
});

test('default is used when no source yields a value, and recorded as such', async () => {
  const r = await resolveSecrets(
    decls([
      { name: 'REGION', default: 'eu-west-1' },
      { name: 'KEY', sensitive: true, default: 'dev-key-123' },
      { name: 'OPTIONAL' },
    ]),
    { env: {}, argv: [], isTTY: false },
  );
  assert.deepEqual(r.values, { REGION: 'eu-west-1', KEY: 'dev-key-123' });
  assert.deepEqual(r.audit, [
    { name: 'REGION', source: 'default', sensitive: false, value: 'eu-west-1' },
    { name: 'KEY', source: 'default', sensitive: true },
    { name: 'OPTIONAL', source: 'unresolved', sensitive: false },
  ]);
  assert.deepEqual(r.sensitiveValues, ['dev-key-123']);
});

test('all missing required secrets are named in one error, with how to supply each', async () => {
  const d = decls([
    { name: 'SHOP_PASSWORD', description: 'Shop password', required: true, sensitive: true },
    { name: 'OK', required: true },
    { name: 'API_KEY', required: true, sources: ['arg'] },
    { name: 'NOT_REQUIRED' },
    { name: 'NOWHERE', required: true, sources: [] },
  ]);
  await assert.rejects(
    resolveSecrets(d, { env: { OK: 'yes' }, argv: [], isTTY: false, prompt: noPrompt }),
    (err: unknown) => {
      assert.ok(err instanceof SecretsError);
      assert.equal(err.code, 'ERR_SECRETS_REQUIRED');
      assert.deepEqual(err.names, ['SHOP_PASSWORD', 'API_KEY', 'NOWHERE']);
      const lines = err.message.split('\n');
      assert.equal(lines[0], 'required secret(s) not found: SHOP_PASSWORD, API_KEY, NOWHERE');
      assert.equal(
        lines[1],
        '  SHOP_PASSWORD (Shop password): set the environment variable SHOP_PASSWORD, pass --SHOP_PASSWORD=<value> or start the server from an interactive terminal to be prompted (no terminal was available)',
      );
      assert.equal(lines[2], '  API_KEY: pass --API_KEY=<value>');
      assert.match(lines[3]!, /NOWHERE: it declares no sources/);
      assert.equal(lines.length, 4);
      return true;
    },
  );
});

test('nothing is prompted when a required secret cannot be resolved anyway', async () => {
  const { prompt, asked } = scriptedPrompt({ A: 'a' });
  const d = decls([
    { name: 'A', required: true },
    { name: 'B', required: true, sources: ['env'] },
  ]);
  await assert.rejects(resolveSecrets(d, { env: {}, argv: [], isTTY: true, prompt }), {
    code: 'ERR_SECRETS_REQUIRED',
    names: ['B'],
  });
  assert.equal(asked.length, 0);
});

test('an empty prompt answer for a required secret fails after prompting', async () => {
  const { prompt, asked } = scriptedPrompt({});
  await assert.rejects(
    resolveSecrets(decls([{ name: 'A', required: true }]), {
      env: {},
      argv: [],
      isTTY: true,
      prompt,
    }),
    (err: SecretsError) => {
      assert.equal(err.code, 'ERR_SECRETS_REQUIRED');
      assert.match(err.message, /an empty answer does not count/);
      return true;
    },
  );
  assert.equal(asked.length, 1);
});

test('a failing prompt becomes ERR_SECRETS_PROMPT_FAILED with the cause', async () => {
  const boom = new Error('stdin closed');
  await assert.rejects(
    resolveSecrets(decls([{ name: 'A' }]), {
      env: {},
      argv: [],
      isTTY: true,
      prompt: () => Promise.reject(boom),
    }),
    (err: SecretsError) => {
      assert.equal(err.code, 'ERR_SECRETS_PROMPT_FAILED');
      assert.equal(err.cause, boom);
      return true;
    },
  );
});

test('aborting a pending prompt fails with ERR_SECRETS_ABORTED', async () => {
  const controller = new AbortController();
  const prompt: PromptFn = (_q, { signal }) =>
    new Promise((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
      controller.abort(new Error('shutting down'));
    });
  await assert.rejects(
    resolveSecrets(decls([{ name: 'A' }]), {
      env: {},
      argv: [],
      isTTY: true,
      prompt,
      signal: controller.signal,
    }),
    { code: 'ERR_SECRETS_ABORTED' },
  );
});

test('publishSecrets writes only resolved values into the target env', async () => {
  const r = await resolveSecrets(decls([{ name: 'A' }, { name: 'B', default: 'b' }]), {
    env: { A: 'a' },
    argv: [],
    isTTY: false,
  });
  const target: Record<string, string | undefined> = { UNRELATED: 'kept' };
  assert.deepEqual(publishSecrets(r.values, target), ['A', 'B']);
  assert.deepEqual(target, { UNRELATED: 'kept', A: 'a', B: 'b' });
});

test('formatAudit never shows a sensitive value', () => {
  assert.equal(
    formatAudit({ name: 'USER', source: 'arg', sensitive: false, value: 'alice' }),
    'USER from arg = "alice"',
  );
  assert.equal(
    formatAudit({ name: 'PW', source: 'env', sensitive: true }),
    'PW from env (sensitive, value hidden)',
  );
  assert.equal(
    formatAudit({ name: 'PW', source: 'env', sensitive: true, value: 'leak' }),
    'PW from env (sensitive, value hidden)',
  );
  assert.equal(formatAudit({ name: 'K', source: 'unresolved', sensitive: false }), 'K unresolved');
});
