import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRedactor } from '@browsertask/secrets';
import { createServiceLogger } from '../src/index.js';

test('a sensitive value never reaches a log line, wherever it appears', () => {
  const lines: string[] = [];
  const { logger, setRedact } = createServiceLogger({
    level: 'debug',
    destination: { write: (line: string) => lines.push(line) },
  });
  const redactor = createRedactor(['hunter2"x']);
  setRedact((text) => redactor.redactSerialized(text));
  logger.info({ password: 'hunter2"x', nested: { v: 'a hunter2"x b' } }, 'login with hunter2"x');
  logger.error({ err: new Error('failed for hunter2"x') }, 'boom');
  assert.equal(lines.length, 2);
  for (const line of lines) {
    assert.doesNotMatch(line, /hunter2/);
    assert.match(line, /\[REDACTED\]/);
    JSON.parse(line);
  }
});
