import { BundleError } from './errors.js';

const REGEXP_SPECIAL = new Set([
  '.',
  '+',
  '^',
  '$',
  '(',
  ')',
  '|',
  '[',
  ']',
  '{',
  '}',
  '\\',
  '/',
  '*',
  '?',
]);

function escapeChar(c: string): string {
  return REGEXP_SPECIAL.has(c) ? `\\${c}` : c;
}

/**
 * Compiles a glob over `/`-separated relative paths to an anchored RegExp.
 *
 * Supports `**` (any number of whole path segments, including none), `*` (anything but `/`),
 * `?` (one character but `/`), `{a,b}` alternatives (nestable), `[abc]`/`[!a-z]` classes and
 * `\` escapes. `*` also matches names starting with a dot.
 *
 * @throws {BundleError} `ERR_BUNDLE_INVALID_GLOB` for an unclosed `{` or a stray `}` / `,` use.
 * @example globToRegExp('tasks/**\/*.{task,webtask}').test('tasks/a/b.task') // true
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let depth = 0;
  let i = 0;
  while (i < glob.length) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        const next = i + 2;
        if (atSegmentStart && next === glob.length) {
          re += '.*';
          i = next;
          continue;
        }
        if (atSegmentStart && glob[next] === '/') {
          re += '(?:[^/]*/)*';
          i = next + 1;
          continue;
        }
        // `**` inside a segment behaves like `*`.
        re += '[^/]*';
        i = next;
        continue;
      }
      re += '[^/]*';
      i += 1;
    } else if (c === '?') {
      re += '[^/]';
      i += 1;
    } else if (c === '{') {
      re += '(?:';
      depth += 1;
      i += 1;
    } else if (c === '}' && depth > 0) {
      re += ')';
      depth -= 1;
      i += 1;
    } else if (c === ',' && depth > 0) {
      re += '|';
      i += 1;
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        re += '\\[';
        i += 1;
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      body = body.replace(/[\\\]^]/g, (m) => `\\${m}`);
      re += negated ? `[^/${body}]` : `[${body}]`;
      i = close + 1;
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escapeChar(glob[i + 1] as string);
      i += 2;
    } else {
      re += escapeChar(c);
      i += 1;
    }
  }
  if (depth !== 0) {
    throw new BundleError('ERR_BUNDLE_INVALID_GLOB', `invalid glob "${glob}": unclosed "{"`);
  }
  return new RegExp(`^${re}$`, 'u');
}

/**
 * Tests a `/`-separated relative path against a glob (see {@link globToRegExp}).
 *
 * @throws {BundleError} `ERR_BUNDLE_INVALID_GLOB` for a malformed glob.
 */
export function matchGlob(glob: string, path: string): boolean {
  return globToRegExp(glob).test(path);
}
