/** The text that replaces every occurrence of a sensitive value. */
export const REDACTED = '[REDACTED]';

/** Masks sensitive values in text and in structured data. */
export interface Redactor {
  /** Number of distinct non-empty values masked (0 = the redactor changes nothing). */
  readonly size: number;
  /** Replace every occurrence of every sensitive value in `text` with `[REDACTED]`. */
  redact(text: string): string;
  /**
   * Like {@link Redactor.redact}, and also masks the values as they appear once or twice
   * JSON-escaped (a value with `"`, `\` or control characters inside a serialised log line,
   * or inside a JSON string embedded in a string). Use it on already-serialised output.
   */
  redactSerialized(text: string): string;
  /**
   * A redacted copy of `value`: strings (and object keys) masked inside plain objects,
   * arrays, `Map`s, `Set`s and `Error`s (message, stack, cause, own properties), objects
   * with `toJSON` replaced by their redacted JSON form; cycles kept. Unchanged parts are
   * shared, the input is never modified. Other class instances are returned as they are
   * (guard serialised output with {@link Redactor.redactSerialized}).
   */
  redactDeep<T>(value: T): T;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function replacer(values: Iterable<string>): (text: string) => string {
  // Longest first, so a value that contains another is masked whole.
  const sorted = [...new Set(values)].filter((v) => v !== '').sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return (text) => text;
  const pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  return (text) => {
    pattern.lastIndex = 0;
    return pattern.test(text) ? text.replace(pattern, REDACTED) : text;
  };
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Build a {@link Redactor} over the given sensitive values (e.g. `resolveSecrets(...).sensitiveValues`).
 * Every non-empty value is masked, however short: a leaked secret is worse than a garbled log
 * line, so keep sensitive values longer than a few characters. Values are matched literally and
 * case-sensitively, longest first.
 *
 * @example
 * const redactor = createRedactor(['hunter2']);
 * redactor.redact('password is hunter2'); // 'password is [REDACTED]'
 */
export function createRedactor(sensitiveValues: Iterable<string>): Redactor {
  const values = [...new Set(sensitiveValues)].filter((v) => v !== '');
  const shortest = values.reduce((min, v) => Math.min(min, v.length), Infinity);
  const redactAny = replacer(values);
  // Strings shorter than the shortest value cannot contain one: skip the regex (hot in redactDeep).
  const redact = (text: string): string => (text.length < shortest ? text : redactAny(text));
  const serialized = new Set<string>(values);
  for (const v of values) {
    const once = jsonEscaped(v);
    serialized.add(once);
    serialized.add(jsonEscaped(once));
  }
  const redactSerialized = replacer(serialized);

  function deep(value: unknown, seen: Map<object, unknown>): unknown {
    if (typeof value === 'string') return redact(value);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return seen.get(value);

    if (Array.isArray(value)) {
      const out: unknown[] = new Array<unknown>(value.length);
      seen.set(value, out);
      let changed = false;
      for (let i = 0; i < value.length; i++) {
        out[i] = deep(value[i], seen);
        if (out[i] !== value[i]) changed = true;
      }
      return settle(value, out, changed, seen);
    }
    if (value instanceof Error) {
      const out = Object.create(Object.getPrototypeOf(value) as object) as Record<
        PropertyKey,
        unknown
      >;
      seen.set(value, out);
      for (const key of Reflect.ownKeys(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, key);
        // `stack` may be an accessor bound to the original: read it, store plain data.
        const current: unknown = Reflect.get(value, key);
        Object.defineProperty(out, typeof key === 'string' ? redact(key) : key, {
          value: deep(current, seen),
          enumerable: descriptor?.enumerable ?? false,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    if (value instanceof Map) {
      const out = new Map<unknown, unknown>();
      seen.set(value, out);
      let changed = false;
      for (const [k, v] of value) {
        const rk = deep(k, seen);
        const rv = deep(v, seen);
        if (rk !== k || rv !== v) changed = true;
        out.set(rk, rv);
      }
      return settle(value, out, changed, seen);
    }
    if (value instanceof Set) {
      const out = new Set<unknown>();
      seen.set(value, out);
      let changed = false;
      for (const v of value) {
        const rv = deep(v, seen);
        if (rv !== v) changed = true;
        out.add(rv);
      }
      return settle(value, out, changed, seen);
    }
    if (isPlainObject(value)) {
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = Object.create(
        Object.getPrototypeOf(value) as object | null,
      ) as Record<string, unknown>;
      seen.set(value, out);
      let changed = false;
      // Enumerable string keys only: what JSON serialisation (and so a log line) shows.
      for (const key of Object.keys(value)) {
        const rk = redact(key);
        const rv = deep(source[key], seen);
        if (rk !== key || rv !== source[key]) changed = true;
        out[rk] = rv;
      }
      return settle(value, out, changed, seen);
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function' && !(value instanceof Date)) {
      const json: unknown = toJSON.call(value);
      const out = deep(json, seen);
      return out === json ? value : out;
    }
    return value;
  }

  function settle(value: object, out: unknown, changed: boolean, seen: Map<object, unknown>) {
    if (changed) return out;
    seen.set(value, value);
    return value;
  }

  return {
    size: values.length,
    redact,
    redactSerialized,
    redactDeep<T>(value: T): T {
      if (values.length === 0) return value;
      return deep(value, new Map()) as T;
    },
  };
}
