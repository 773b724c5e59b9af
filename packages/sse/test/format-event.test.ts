import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatComment, formatEvent, SseError } from '../src/index.js';
import { streamCollector } from './helpers/http.js';

test('formatEvent frames a JSON payload as event: + data: + blank line', () => {
  assert.equal(
    formatEvent('done', { ok: true, data: { n: 1 } }),
    'event: done\ndata: {"ok":true,"data":{"n":1}}\n\n',
  );
});

test('formatEvent splits multi-line strings into several data: lines (LF, CRLF, CR)', () => {
  assert.equal(
    formatEvent('log', 'a\nb\r\nc\rd'),
    'event: log\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
  );
  // A spec-compliant parser joins them back with \n.
  const c = streamCollector();
  c.feed(formatEvent('log', 'line one\nline two'));
  assert.deepEqual(c.items, [{ type: 'event', event: 'log', data: 'line one\nline two' }]);
});

test('formatEvent sends undefined as null and keeps JSON strings with newlines on one line', () => {
  assert.equal(formatEvent('x', undefined), 'event: x\ndata: null\n\n');
  assert.equal(formatEvent('x', { text: 'a\nb' }), 'event: x\ndata: {"text":"a\\nb"}\n\n');
});

test('formatEvent rejects an event name with a line break', () => {
  assert.throws(
    () => formatEvent('done\ndata: forged', {}),
    (err: unknown) => err instanceof SseError && err.code === 'ERR_SSE_BAD_EVENT',
  );
});

test('formatComment writes one comment line per line', () => {
  assert.equal(formatComment('ping'), ': ping\n\n');
  assert.equal(formatComment('a\nb'), ': a\n: b\n\n');
});
