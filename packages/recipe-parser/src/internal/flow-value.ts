/**
 * Flow values: the JSON-ish literals of the recipe language, e.g.
 * `{ fraction: 0.5, "tags": [a, "b c", true, null] }`. Keys may be bare; strings may be
 * double- or single-quoted or bare words; commas are optional between items and a
 * trailing comma is allowed.
 */
import type { FlowValue } from '../taskdef.js';

/** Result of parsing a flow value out of a string. */
export type FlowParse =
  { ok: true; value: FlowValue; end: number } | { ok: false; message: string; index: number };

const DELIMS = new Set([',', ']', '}', ':', ' ', '\t', '[', '{']);
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

class FlowError extends Error {
  readonly index: number;
  constructor(message: string, index: number) {
    super(message);
    this.index = index;
  }
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  return i;
}

/** Read a quoted string starting at `i` (the quote); returns value and index after it. */
export function readQuoted(s: string, i: number): { value: string; end: number } | undefined {
  const quote = s[i];
  let out = '';
  let j = i + 1;
  while (j < s.length) {
    const ch = s[j]!;
    if (ch === '\\' && j + 1 < s.length) {
      const next = s[j + 1]!;
      if (next === quote || next === '\\') out += next;
      else if (next === 'n') out += '\n';
      else if (next === 't') out += '\t';
      // Any other escape is kept verbatim, so regexes and CSS escapes survive.
      else out += ch + next;
      j += 2;
      continue;
    }
    if (ch === quote) return { value: out, end: j + 1 };
    out += ch;
    j++;
  }
  return undefined;
}

/** Turn a bare word into its scalar: number, true/false/null or the string itself. */
export function bareScalar(word: string): FlowValue {
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (word === 'null') return null;
  if (NUMBER.test(word)) return Number(word);
  return word;
}

function parseValue(s: string, i: number, depth: number): { value: FlowValue; end: number } {
  if (depth > 64) throw new FlowError('flow value nested too deeply (more than 64 levels)', i);
  i = skipSpace(s, i);
  const ch = s[i];
  if (ch === undefined) throw new FlowError('expected a value, found the end of the line', i);
  if (ch === '{') return parseObject(s, i, depth);
  if (ch === '[') return parseArray(s, i, depth);
  if (ch === '"' || ch === "'") {
    const q = readQuoted(s, i);
    if (!q) throw new FlowError(`unterminated string: expected a closing \`${ch}\``, i);
    return q;
  }
  if (ch === ',' || ch === ']' || ch === '}' || ch === ':') {
    throw new FlowError(`expected a value, found \`${ch}\``, i);
  }
  let j = i;
  while (j < s.length && !DELIMS.has(s[j]!)) j++;
  // A bare word may contain `:` (URLs) when not followed by a space, e.g. https://x.
  while (j < s.length && s[j] === ':' && j + 1 < s.length && !DELIMS.has(s[j + 1]!)) {
    j++;
    while (j < s.length && !DELIMS.has(s[j]!)) j++;
  }
  return { value: bareScalar(s.slice(i, j)), end: j };
}

function parseArray(s: string, i: number, depth: number): { value: FlowValue; end: number } {
  const out: FlowValue[] = [];
  let j = i + 1;
  for (;;) {
    j = skipSpace(s, j);
    if (j >= s.length) throw new FlowError('invalid flow value: expected `]` to close the list', i);
    if (s[j] === ']') return { value: out, end: j + 1 };
    const item = parseValue(s, j, depth + 1);
    out.push(item.value);
    j = skipSpace(s, item.end);
    if (s[j] === ',') j++;
    else if (j < s.length && s[j] !== ']' && !/[\s]/.test(s[j - 1] ?? '')) {
      throw new FlowError(`invalid flow value: expected \`,\` or \`]\`, found \`${s[j]}\``, j);
    }
  }
}

function parseObject(s: string, i: number, depth: number): { value: FlowValue; end: number } {
  const out: Record<string, FlowValue> = {};
  let j = i + 1;
  for (;;) {
    j = skipSpace(s, j);
    if (j >= s.length) throw new FlowError('invalid flow value: expected `}` to close the map', i);
    if (s[j] === '}') return { value: out, end: j + 1 };
    let key: string;
    const ch = s[j]!;
    if (ch === '"' || ch === "'") {
      const q = readQuoted(s, j);
      if (!q) throw new FlowError(`unterminated string: expected a closing \`${ch}\``, j);
      key = q.value;
      j = q.end;
    } else {
      let k = j;
      while (k < s.length && !DELIMS.has(s[k]!)) k++;
      if (k === j) throw new FlowError(`invalid flow value: expected a key, found \`${ch}\``, j);
      key = s.slice(j, k);
      j = k;
    }
    j = skipSpace(s, j);
    if (s[j] !== ':') {
      throw new FlowError(`invalid flow value: expected \`:\` after key \`${key}\``, j);
    }
    const item = parseValue(s, j + 1, depth + 1);
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: item.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = item.value;
    }
    j = skipSpace(s, item.end);
    if (s[j] === ',') j++;
    else if (j < s.length && s[j] !== '}' && !/[\s]/.test(s[j - 1] ?? '')) {
      throw new FlowError(`invalid flow value: expected \`,\` or \`}\`, found \`${s[j]}\``, j);
    }
  }
}

/** Parse one flow value starting at `start`; reports where it stopped or what went wrong. */
export function parseFlowValue(s: string, start = 0): FlowParse {
  try {
    const r = parseValue(s, start, 0);
    return { ok: true, value: r.value, end: r.end };
  } catch (err) {
    if (err instanceof FlowError) return { ok: false, message: err.message, index: err.index };
    throw err;
  }
}
