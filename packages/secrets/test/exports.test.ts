import assert from 'node:assert/strict';
import { test } from 'node:test';

test('the public API is deliberate', async () => {
  const api = await import('../src/index.js');
  assert.deepEqual(Object.keys(api).sort(), [
    'REDACTED',
    'SECRET_SOURCES',
    'SecretsError',
    'createEnquirerPrompt',
    'createRedactingDestination',
    'createRedactor',
    'formatAudit',
    'noopLogger',
    'pinoRedaction',
    'publishSecrets',
    'resolveSecrets',
    'secretsConfigSchema',
    'validateSecretsConfig',
  ]);
});
