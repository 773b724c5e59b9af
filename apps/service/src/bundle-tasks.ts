/**
 * Finds and parses every task of a bundle (`tasks/**` recipes and YAML TaskDefs),
 * collecting every problem rather than stopping at the first.
 */
import { formatDiagnostic, loadTask, type TaskDef } from '@browsertask/recipe-parser';
import { isConfigFilePath, type BundleFiles } from './config-files.js';

/** Extensions of task files: recipes and YAML TaskDefs. */
export const TASK_EXTENSIONS = ['.task', '.webtask', '.yaml', '.yml'] as const;

/** Whether a bundle path holds a task. */
export function isTaskPath(path: string): boolean {
  return (
    path.startsWith('tasks/') &&
    TASK_EXTENSIONS.some((ext) => path.endsWith(ext)) &&
    !isConfigFilePath(path)
  );
}

/** Whether a bundle path holds a recipe (transpiled to YAML by `bundle`). */
export function isRecipePath(path: string): boolean {
  return path.endsWith('.task') || path.endsWith('.webtask');
}

/** One loaded task with its file. */
export interface LoadedTask {
  /** Bundle path of the file. */
  readonly path: string;
  readonly text: string;
  readonly task: TaskDef;
}

/** Every task and every problem, formatted `file:line:col: message` (+ source line). */
export interface LoadBundleTasksResult {
  readonly tasks: readonly LoadedTask[];
  /** Formatted errors; empty when every task loaded. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * Loads every task of a bundle; duplicate slugs are errors. `knownNames` (declared
 * secrets, published variables) are template names that raise no warning.
 * @example const { tasks, errors } = await loadBundleTasks(bundle, 'my-bundle/');
 */
export async function loadBundleTasks(
  bundle: BundleFiles,
  displayPrefix = '',
  knownNames: Iterable<string> = [],
): Promise<LoadBundleTasksResult> {
  const known = [...knownNames];
  const paths = (await bundle.list()).filter(isTaskPath).sort();
  const tasks: LoadedTask[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  const bySlug = new Map<string, string>();
  for (const path of paths) {
    const text = await bundle.readText(path);
    const file = `${displayPrefix}${path}`;
    const result = loadTask(text, file, { knownNames: known });
    if (!result.ok) {
      for (const d of result.diagnostics) {
        (d.severity === 'warning' ? warnings : errors).push(formatDiagnostic(d, text));
      }
      continue;
    }
    for (const d of result.warnings) warnings.push(formatDiagnostic(d, text));
    const other = bySlug.get(result.task.name);
    if (other !== undefined) {
      errors.push(
        `${file}:1:1: task "${result.task.name}" is already defined in ${displayPrefix}${other}`,
      );
      continue;
    }
    bySlug.set(result.task.name, path);
    tasks.push({ path, text, task: result.task });
  }
  if (paths.length === 0) {
    errors.push(`${displayPrefix}tasks/:1:1: no task files (tasks/**/*.task, *.webtask, *.yaml)`);
  }
  return { tasks, errors, warnings };
}
