/**
 * Templating, as webtasks does it: `{{name}}` looks up a binding (inputs, earlier results,
 * loop variables), then the injected environment (how secrets arrive); `{{name|or:x}}`
 * falls back to `x` when both are missing or empty; `{{a.b.0}}` walks into objects and
 * arrays; an unresolved token renders empty. A parameter that is exactly one token gets
 * the raw bound value (list, map, number, bool) instead of its string form.
 */

/** Where templates look names up. */
export interface TemplateScope {
  /** Inputs, earlier step results and loop variables. */
  readonly bindings: Readonly<Record<string, unknown>>;
  /** Environment fallback (the service passes the process environment; the runner never reads it itself). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const TOKEN = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SINGLE_TOKEN = /^\s*\{\{\s*([^{}]*?)\s*\}\}\s*$/;

interface ParsedToken {
  readonly path: string;
  readonly fallback: string | undefined;
}

function parseToken(inner: string): ParsedToken {
  const bar = inner.indexOf('|');
  if (bar === -1) return { path: inner.trim(), fallback: undefined };
  const path = inner.slice(0, bar).trim();
  const filter = inner.slice(bar + 1).trim();
  // Only the `or:` filter exists (webtasks); anything else is ignored.
  return { path, fallback: filter.startsWith('or:') ? filter.slice(3) : undefined };
}

function walk(root: unknown, segments: readonly string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      if (segment === 'length') current = current.length;
      else if (/^\d+$/.test(segment)) current = current[Number(segment)];
      else return undefined;
    } else if (typeof current === 'string') {
      if (segment !== 'length') return undefined;
      current = current.length;
    } else if (typeof current === 'object') {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/**
 * Resolves one name (`a.b.0`) against the scope: bindings first, then the environment.
 * Returns `undefined` when it resolves nowhere.
 */
export function lookupName(path: string, scope: TemplateScope): unknown {
  if (path === '') return undefined;
  if (Object.hasOwn(scope.bindings, path)) return scope.bindings[path];
  const segments = path.split('.');
  const head = segments[0] ?? '';
  if (Object.hasOwn(scope.bindings, head)) {
    const found = walk(scope.bindings[head], segments.slice(1));
    if (found !== undefined) return found;
  }
  const env = scope.env;
  if (env !== undefined && Object.hasOwn(env, path)) return env[path];
  return undefined;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function resolveToken(token: ParsedToken, scope: TemplateScope): unknown {
  const value = lookupName(token.path, scope);
  if (isEmpty(value) && token.fallback !== undefined) return token.fallback;
  return value;
}

/** The string form of a value inside text: strings as-is, structures as JSON, nothing as "". */
export function stringifyValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}

/** Interpolates every `{{…}}` token of `text` into a string. */
export function renderString(text: string, scope: TemplateScope): string {
  if (!text.includes('{{')) return text;
  return text.replace(TOKEN, (_match, inner: string) =>
    stringifyValue(resolveToken(parseToken(inner), scope)),
  );
}

/**
 * Renders one parameter value: a string that is exactly one token gives the raw bound
 * value when it is not a string (nor null); other strings are interpolated; lists and
 * maps are rendered item by item; numbers, bools and null pass through.
 *
 * @example
 * renderValue('{{rows}}', { bindings: { rows: [1, 2] } }) // → [1, 2]
 * renderValue('n={{rows.0}}', { bindings: { rows: [1, 2] } }) // → 'n=1'
 */
export function renderValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const single = SINGLE_TOKEN.exec(value);
    if (single !== null) {
      const raw = resolveToken(parseToken(single[1] ?? ''), scope);
      if (raw !== undefined && raw !== null && typeof raw !== 'string') return raw;
    }
    return renderString(value, scope);
  }
  if (Array.isArray(value)) return value.map((item) => renderValue(item, scope));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = renderValue(item, scope);
    return out;
  }
  return value;
}

/**
 * The `return` rule (design.md): exactly `"{{x}}"` gives x's value with its JSON type
 * (strings included); any other string is interpolated; a structure is rendered as one.
 */
export function renderReturnValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const single = SINGLE_TOKEN.exec(value);
    if (single !== null) {
      const raw = resolveToken(parseToken(single[1] ?? ''), scope);
      return raw === undefined ? null : raw;
    }
    return renderString(value, scope);
  }
  return renderValue(value, scope);
}
