/**
 * Line lexer of the recipe language. A line is split into tokens: quoted strings
 * (`"…"` with `\"` and `\\` escapes), groups (a `{…}` or `[…]` span, kept raw and read
 * later as a flow value or as a bare selector such as `[data-id=x]`), and words (runs
 * of non-blank characters).
 */
import { readQuoted } from './flow-value.js';

/** Kind of a token. */
export type TokenKind = 'word' | 'string' | 'group';

/** One token of a line. `col` is 1-based; `start`/`end` are indexes into the line. */
export interface Token {
  readonly kind: TokenKind;
  /** Source text of the token, quotes included. */
  readonly raw: string;
  /** Unescaped text for strings; the raw text otherwise. */
  readonly text: string;
  readonly col: number;
  readonly start: number;
  readonly end: number;
}

/** A lexed line, with the first lexical error if any (the tokens before it are kept). */
export interface LexedLine {
  readonly tokens: Token[];
  readonly error?: { readonly message: string; readonly col: number };
}

function groupEnd(line: string, i: number): number | undefined {
  let depth = 0;
  let j = i;
  while (j < line.length) {
    const ch = line[j]!;
    if (ch === '"' || ch === "'") {
      // Quotes inside a group; an unbalanced single quote (e.g. `[x='a]`) just ends the scan.
      const q = readQuoted(line, j);
      if (!q) return undefined;
      j = q.end;
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return undefined;
}

/** Split one source line into tokens. */
export function lexLine(line: string): LexedLine {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '"') {
      const q = readQuoted(line, i);
      if (!q) {
        return {
          tokens,
          error: {
            message: 'unterminated string: expected a closing `"` before the end of the line',
            col: i + 1,
          },
        };
      }
      tokens.push({
        kind: 'string',
        raw: line.slice(i, q.end),
        text: q.value,
        col: i + 1,
        start: i,
        end: q.end,
      });
      i = q.end;
      continue;
    }
    if (ch === '{' || ch === '[') {
      const end = groupEnd(line, i);
      if (end !== undefined) {
        // A group glued to more text (`[a]>b`) is a word: a bare selector.
        let k = end;
        while (k < line.length && line[k] !== ' ' && line[k] !== '\t') k++;
        if (k === end) {
          const raw = line.slice(i, end);
          tokens.push({ kind: 'group', raw, text: raw, col: i + 1, start: i, end });
          i = end;
          continue;
        }
      } else {
        // Unclosed group: the rest of the line; reading it as a flow value reports the error.
        const raw = line.slice(i).trimEnd();
        tokens.push({ kind: 'group', raw, text: raw, col: i + 1, start: i, end: i + raw.length });
        i = line.length;
        continue;
      }
    }
    let j = i;
    while (j < line.length && line[j] !== ' ' && line[j] !== '\t') j++;
    const raw = line.slice(i, j);
    tokens.push({ kind: 'word', raw, text: raw, col: i + 1, start: i, end: j });
    i = j;
  }
  return { tokens };
}
