/**
 * Problems found in bundle files, printed as `file:line:col: message` (the recipe
 * parser's format), plus helpers to locate a JSON path inside a YAML document.
 */
import { LineCounter, isNode, parseDocument, type Document } from 'yaml';

/** One problem: where, what, how bad. */
export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

/** `file:line:col: message` (warnings say so). */
export function formatProblem(p: Problem): string {
  const label = p.severity === 'warning' ? 'warning: ' : '';
  return `${p.file}:${p.line}:${p.col}: ${label}${p.message}`;
}

/** A parsed YAML/JSON file that can map a data path back to its source position. */
export interface LocatedDocument {
  readonly data: unknown;
  /** Syntax errors, already located. */
  readonly errors: readonly Problem[];
  /** Line/column of the node at `path` (the closest existing ancestor). */
  readonly locate: (path: readonly (string | number)[]) => { line: number; col: number };
}

/** Parses YAML (JSON is YAML) keeping positions for later diagnostics. */
export function parseLocated(text: string, file: string): LocatedDocument {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const errors: Problem[] = doc.errors.map((e) => {
    const pos = lineCounter.linePos(e.pos[0]);
    return {
      file,
      line: pos.line,
      col: pos.col,
      message: e.message.split('\n')[0] ?? e.message,
      severity: 'error',
    };
  });
  return {
    data: errors.length > 0 ? undefined : (doc.toJS() as unknown),
    errors,
    locate: (path) => {
      for (let n = path.length; n >= 0; n--) {
        const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
        if (isNode(node) && node.range) {
          const pos = lineCounter.linePos(node.range[0]);
          return { line: pos.line, col: pos.col };
        }
      }
      return { line: 1, col: 1 };
    },
  };
}

/**
 * Splits a diagnostic path as packages report it (`/pools/a/size`, `pools.a.size`,
 * `mounts[0].dir`, or an array) into segments.
 */
export function splitDataPath(path: unknown): (string | number)[] {
  if (Array.isArray(path)) return path.map((p) => (typeof p === 'number' ? p : String(p)));
  if (typeof path !== 'string' || path === '' || path === '/') return [];
  const raw = path.startsWith('/')
    ? path
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    : path
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .filter((s) => s !== '');
  return raw.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Joins path segments for a message: `pools.default.size`, `mounts[0].dir`. */
export function formatDataPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out === '' ? '(root)' : out;
}
