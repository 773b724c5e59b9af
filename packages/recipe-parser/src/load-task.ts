/** One entry point for every task file: recipes and YAML TaskDefs, chosen by extension. */
import { fileDiagnostic, formatDiagnostic } from './diagnostics.js';
import { RecipeError } from './errors.js';
import { parseRecipe, type LoadResult, type ParseOptions } from './parse-recipe.js';
import type { TaskDef } from './taskdef.js';
import { fromYaml } from './yaml.js';

/** File extensions {@link loadTask} understands. */
export const TASK_EXTENSIONS = ['.task', '.webtask', '.yaml', '.yml'] as const;

/**
 * Load a task file: `.task`/`.webtask` through {@link parseRecipe}, `.yaml`/`.yml`
 * through {@link fromYaml}. Any other extension is an `ERR_RECIPE_INVALID` diagnostic.
 * Never throws.
 *
 * @example
 * const r = loadTask(await bundle.readText(path), path, { knownNames: secretNames });
 */
export function loadTask(text: string, file: string, options: ParseOptions = {}): LoadResult {
  const lower = file.toLowerCase();
  if (lower.endsWith('.task') || lower.endsWith('.webtask'))
    return parseRecipe(text, file, options);
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return fromYaml(text, file, options);
  return {
    ok: false,
    diagnostics: [
      fileDiagnostic(
        file,
        'ERR_RECIPE_INVALID',
        `unsupported task file extension: expected ${TASK_EXTENSIONS.join(', ')}`,
      ),
    ],
  };
}

/**
 * {@link loadTask} for callers that prefer exceptions: returns the TaskDef or throws.
 *
 * @throws {RecipeError} `ERR_RECIPE_SYNTAX` when any error is a syntax error, else
 *   `ERR_RECIPE_INVALID`; the message lists every error as `file:line:col: message`
 *   with its source line and caret, and `.diagnostics` holds them all.
 */
export function loadTaskOrThrow(text: string, file: string, options: ParseOptions = {}): TaskDef {
  const r = loadTask(text, file, options);
  if (r.ok) return r.task;
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  const code = errors.some((d) => d.code === 'ERR_RECIPE_SYNTAX')
    ? 'ERR_RECIPE_SYNTAX'
    : 'ERR_RECIPE_INVALID';
  throw new RecipeError(
    code,
    errors.map((d) => formatDiagnostic(d, text)).join('\n'),
    r.diagnostics,
  );
}
