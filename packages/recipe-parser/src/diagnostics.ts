/**
 * Diagnostics: every problem the parser finds, with its `file:line:col` position.
 */
import type { RecipeErrorCode } from './errors.js';

/** Severity of a diagnostic: errors make a load fail, warnings do not. */
export type DiagnosticSeverity = 'error' | 'warning';

/** Code of a warning: a `{{name}}` that is neither an input, a binding nor a known secret. */
export type RecipeWarningCode = 'WARN_RECIPE_UNKNOWN_NAME' | 'WARN_RECIPE_IGNORED';

/** One problem found in a recipe or TaskDef, at a 1-based line and column. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly severity: DiagnosticSeverity;
  /** `ERR_RECIPE_SYNTAX` / `ERR_RECIPE_INVALID` for errors, a `WARN_…` code for warnings. */
  readonly code: RecipeErrorCode | RecipeWarningCode;
}

/** A whole-file problem, reported at 1:1: the single diagnostic of a failed load. */
export function fileDiagnostic(file: string, code: RecipeErrorCode, message: string): Diagnostic {
  return { file, line: 1, col: 1, severity: 'error', code, message };
}

/**
 * Render a diagnostic as `file:line:col: message`, followed, when the source text is
 * given, by the offending source line and a caret under the column.
 *
 * @example
 * formatDiagnostic(d, text)
 * // tasks/a.task:3:5: unknown action `clik` — did you mean `click`?
 * //     clik "#go"
 * //     ^
 */
export function formatDiagnostic(d: Diagnostic, sourceText?: string): string {
  const head = `${d.file}:${d.line}:${d.col}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`;
  if (sourceText === undefined) return head;
  const line = sourceText.split(/\r?\n/)[d.line - 1];
  if (line === undefined) return head;
  // Keep tabs in the caret line so it lines up under tab-indented source.
  const pad = line.slice(0, Math.max(0, d.col - 1)).replace(/[^\t]/g, ' ');
  return `${head}\n${line}\n${pad}^`;
}

/** Sort diagnostics by line, then column (stable). */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => a.line - b.line || a.col - b.col);
}
