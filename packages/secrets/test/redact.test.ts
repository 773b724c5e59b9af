import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import {
  REDACTED,
  createRedactingDestination,
  createRedactor,
  pinoRedaction,
  resolveSecrets,
  validateSecretsConfig,
  type Redactor,
} from '../src/index.js';

test('redact masks every occurrence of every value, longest first', () => {
  const r = createRedactor(['abc', 'abcdef', '', 'x.y*z']);
  assert.equal(r.size, 3);
  assert.equal(
    r.redact('abcdef abc abcabc x.y*z xy'),
    `${REDACTED} ${REDACTED} ${REDACTED}${REDACTED} ${REDACTED} xy`,
  );
  assert.equal(r.redact('nothing here'), 'nothing here');
});

test('an empty redactor changes nothing and returns the same objects', () => {
  const r = createRedactor([]);
  const obj = { a: 'secret' };
  assert.equal(r.redactDeep(obj), obj);
  assert.equal(r.redact('secret'), 'secret');
});

test('redactDeep masks nested values and keys, shares untouched parts, keeps the input', () => {
  const r = createRedactor(['s3cret']);
  const untouched = { n: 1, list: ['a'] };
  const input = {
    user: { password: 's3cret', note: 'pw=s3cret;' },
    s3cret: true,
    list: ['x', 's3cret'],
    map: new Map([['k', 's3cret']]),
    set: new Set(['s3cret']),
    url: new URL('https://example.test/?token=s3cret'),
    untouched,
  };
  const out = r.redactDeep(input);
  assert.deepEqual(out.user, { password: REDACTED, note: `pw=${REDACTED};` });
  assert.deepEqual(out.list, ['x', REDACTED]);
  assert.equal(out.map.get('k'), REDACTED);
  assert.ok(out.set.has(REDACTED));
  assert.equal(out.url, `https://example.test/?token=${REDACTED}`);
  assert.ok(!JSON.stringify(out).includes('s3cret'));
  assert.equal(out.untouched, untouched);
  assert.equal(input.user.password, 's3cret');
});

test('redactDeep handles errors (message, stack, cause, own props) and cycles', () => {
  const r = createRedactor(['s3cret']);
  const cause = new Error('inner s3cret');
  const err = Object.assign(new TypeError('login with s3cret failed', { cause }), {
    detail: 's3cret',
  });
  const out = r.redactDeep(err);
  assert.ok(out instanceof TypeError);
  assert.equal(out.message, `login with ${REDACTED} failed`);
  assert.ok(!out.stack!.includes('s3cret'));
  assert.equal((out.cause as Error).message, `inner ${REDACTED}`);
  assert.equal(out.detail, REDACTED);
  assert.equal(err.message, 'login with s3cret failed');

  const cyclic: Record<string, unknown> = { v: 's3cret' };
  cyclic.self = cyclic;
  const c = r.redactDeep(cyclic);
  assert.equal(c.v, REDACTED);
  assert.equal(c.self, c);
});

test('redactSerialized also masks JSON-escaped forms', () => {
  const value = 'pa"ss\\word';
  const r = createRedactor([value]);
  const line = JSON.stringify({ msg: value, nested: JSON.stringify({ v: value }) });
  assert.ok(!r.redact(line).includes(REDACTED));
  const out = r.redactSerialized(line);
  assert.equal(out.includes(JSON.stringify(value).slice(1, -1)), false);
  assert.deepEqual(JSON.parse(out), { msg: REDACTED, nested: JSON.stringify({ v: REDACTED }) });
});

/** The fields of captured pino lines these tests look at. */
interface LogLine {
  msg?: string;
  body?: unknown;
  err?: { message: string; type: string };
  secretBinding?: string;
  plain?: string;
  box?: { inside: string };
}

function capturingLogger(redactor: Redactor) {
  const lines: string[] = [];
  const sink = { write: (line: string) => void lines.push(line) };
  const logger = pino(
    { level: 'trace', ...pinoRedaction(redactor) },
    createRedactingDestination(redactor, sink),
  );
  return { logger, lines };
}

test('a sensitive value never reaches a pino log line', async () => {
  const config = validateSecretsConfig({
    secrets: [
      { name: 'SHOP_PASSWORD', sensitive: true, required: true },
      { name: 'SHOP_QUOTED', sensitive: true },
      { name: 'SHOP_USER' },
    ],
  });
  assert.ok(config.ok);
  const password = 'Tr0ub4dor&3-horse';
  const quoted = 'with "quotes" and \\ backslash';
  const { sensitiveValues } = await resolveSecrets(config.value, {
    env: { SHOP_PASSWORD: password, SHOP_USER: 'alice' },
    argv: [`--SHOP_QUOTED=${quoted}`],
    isTTY: false,
  });
  const redactor = createRedactor(sensitiveValues);
  const { logger, lines } = capturingLogger(redactor);

  class Credentials {
    readonly password: string;
    constructor(value: string) {
      this.password = value;
    }
  }
  logger.info({ body: { password, user: 'alice' } }, 'request body');
  logger.info(`message with ${password} inside`);
  logger.info(
    { task: 'login' },
    'interpolated %s and %j and %o',
    password,
    { p: password },
    { q: quoted },
  );
  logger.error(
    { err: new Error(`login failed for ${password}`, { cause: new Error(quoted) }) },
    'step failed',
  );
  logger.error(new Error(`thrown ${password}`));
  logger.warn({ creds: new Credentials(password), [password]: 'as key' }, 'class instance and key');
  logger.child({ secretBinding: password }).info({ quoted }, 'child logger');
  logger.child({}, { msgPrefix: `[${password}] ` }).info('prefixed');
  logger.info({ args: ['{{SHOP_PASSWORD}}', password], quoted }, 'step params');
  logger.flush();

  assert.equal(lines.length, 9);
  const output = lines.join('');
  assert.equal(output.includes(password), false, output);
  assert.equal(output.includes('Tr0ub4dor'), false);
  assert.equal(output.includes(quoted), false);
  assert.equal(output.includes(JSON.stringify(quoted).slice(1, -1)), false);
  // The lines stay valid JSON and keep everything else.
  const parsed = lines.map((l) => JSON.parse(l) as LogLine);
  assert.deepEqual(parsed[0]!.body, { password: REDACTED, user: 'alice' });
  assert.equal(parsed[1]!.msg, `message with ${REDACTED} inside`);
  assert.match(parsed[3]!.err!.message, /^login failed for \[REDACTED\]/);
  assert.equal(parsed[3]!.err!.type, 'Error');
  assert.equal(parsed[4]!.msg, `thrown ${REDACTED}`);
  assert.equal(parsed[6]!.secretBinding, REDACTED);
  assert.ok(output.includes(REDACTED));
});

test('each layer alone: hooks keep structure, the destination catches class instances', () => {
  const redactor = createRedactor(['layer-secret']);
  class Box {
    readonly inside: string;
    constructor(value: string) {
      this.inside = value;
    }
  }
  const structured: string[] = [];
  pino({ ...pinoRedaction(redactor) }, { write: (l: string) => void structured.push(l) }).info(
    { plain: 'layer-secret', box: new Box('layer-secret') },
    'layers',
  );
  const line = JSON.parse(structured[0]!) as LogLine;
  assert.equal(line.plain, REDACTED);
  assert.equal(
    line.box!.inside,
    'layer-secret',
    'class instances are left to the destination layer',
  );

  const guarded: string[] = [];
  const sink = createRedactingDestination(redactor, { write: (l: string) => void guarded.push(l) });
  pino({}, sink).info({ box: new Box('layer-secret') }, 'layers');
  assert.equal(guarded.join('').includes('layer-secret'), false);
});

test('the redacting destination forwards flushSync, flush and end', () => {
  const calls: string[] = [];
  const dest = createRedactingDestination(createRedactor(['x-secret']), {
    write: (l: string) => void calls.push(`write ${l}`),
    flushSync: () => void calls.push('flushSync'),
    flush: (cb) => {
      calls.push('flush');
      cb?.();
    },
    end: () => void calls.push('end'),
  });
  dest.write('a x-secret b');
  dest.flushSync?.();
  dest.flush?.(() => calls.push('flushed'));
  dest.end?.();
  assert.deepEqual(calls, [`write a ${REDACTED} b`, 'flushSync', 'flush', 'flushed', 'end']);
  assert.equal(
    'flush' in createRedactingDestination(createRedactor([]), { write: () => 0 }),
    false,
  );
});

test('without the redaction options the same logger would leak (the test can fail)', () => {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  logger.info({ password: 'visible-value' }, 'leak');
  assert.ok(lines.join('').includes('visible-value'));
});
