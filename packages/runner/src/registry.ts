/**
 * The task registry over a bundle: tasks are re-read on every request, but only when the
 * bundle's version token changed (an unchanged bundle costs one `version()` call), so a
 * changed file is never served stale. `.task`/`.webtask` recipes and `.yaml`/`.yml`
 * TaskDefs under `tasks/` load alike. A broken recipe never hides the others: listing and
 * `count()` cover the valid ones, and running the broken one fails with its
 * `file:line:col: message`.
 */
import {
  loadTask as parserLoadTask,
  type InputDef,
  type TaskDef,
  type Transport,
} from '@browsertask/recipe-parser';
import type { BundleReader } from './context.js';
import { RunnerError } from './errors.js';
import { noopLogger, type Logger } from './logger.js';

/** One problem of a recipe file (recipe-parser's Diagnostic shape). */
export interface TaskProblem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  /** The slug the broken file declares, when it could be read. */
  readonly slug?: string;
}

/** The result of loading one file (recipe-parser's `loadTask`). */
export type LoadTaskResult =
  | { readonly ok: true; readonly task: TaskDef; readonly warnings?: readonly unknown[] }
  | {
      readonly ok: false;
      readonly diagnostics: readonly {
        file: string;
        line: number;
        col: number;
        message: string;
        severity?: string;
      }[];
    };

/** Parses one task file, choosing the format by extension (recipe-parser's `loadTask`). */
export type LoadTaskFn = (text: string, file: string) => LoadTaskResult;

/** An element of `GET /tasks` (spec: task listing entry). */
export interface TaskListingEntry {
  readonly name: string;
  readonly poolTag: string;
  readonly transports: readonly Transport[];
  readonly timeoutMs: number;
  readonly input: Readonly<Record<string, InputDef>>;
}

/** Options of {@link createTaskRegistry}. */
export interface TaskRegistryOptions {
  /** Parser of one file. @default recipe-parser's `loadTask` */
  readonly loadTask?: LoadTaskFn;
  /** Listed `timeoutMs` of tasks that declare none. @default 60000 */
  readonly defaultTimeoutMs?: number;
  readonly logger?: Logger;
}

/** The live task catalogue. */
export interface TaskRegistry {
  /** Every valid task as a listing entry, sorted by name. */
  list(): Promise<TaskListingEntry[]>;
  /**
   * The task with that slug.
   *
   * @throws RunnerError `ERR_RUNNER_UNKNOWN_TASK` (`unknown task: <slug>`),
   *   `ERR_RUNNER_INVALID_RECIPE` (`file:line:col: message` of the broken file declaring it)
   */
  get(slug: string): Promise<TaskDef>;
  /** Number of valid tasks, re-counted live. */
  count(): Promise<number>;
  /** Problems of the files that did not load (and duplicate slugs). */
  problems(): Promise<TaskProblem[]>;
}

const TASK_FILE = /\.(task|webtask|ya?ml)$/i;
const CONFIG_FILE = /(^|\/)(pool|static-mounts|secrets)(\.(ya?ml|json))?$/i;

interface Snapshot {
  readonly version: string;
  readonly tasks: ReadonlyMap<string, TaskDef>;
  readonly broken: ReadonlyMap<string, TaskProblem>;
  readonly problems: readonly TaskProblem[];
}

/** Best-effort slug of a file that does not parse, so running it can name its error. */
function guessSlug(text: string, file: string): string | undefined {
  const match = /\.ya?ml$/i.test(file)
    ? /^name:\s*["']?([^"'\n#]+?)["']?\s*(#.*)?$/m.exec(text)
    : (/^\s*task\s+"((?:[^"\\]|\\.)*)"/m.exec(text) ?? /^\s*task\s+(\S+)/m.exec(text));
  return match?.[1]?.trim();
}

/**
 * Creates the registry over a bundle.
 *
 * @example
 * const registry = createTaskRegistry(await openBundle('./bundle-example'));
 * const task = await registry.get('demo/title');
 */
export function createTaskRegistry(
  bundle: BundleReader,
  options: TaskRegistryOptions = {},
): TaskRegistry {
  const loadTask: LoadTaskFn = options.loadTask ?? parserLoadTask;
  const logger = options.logger ?? noopLogger;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 60000;
  const parsed = new Map<
    string,
    { text: string; fingerprint: string | undefined; result: LoadTaskResult }
  >();
  let current: Snapshot | undefined;
  let loading: Promise<Snapshot> | undefined;

  async function load(version: string): Promise<Snapshot> {
    const files = (await bundle.list())
      .filter((f) => f.startsWith('tasks/') && TASK_FILE.test(f) && !CONFIG_FILE.test(f))
      .sort();
    const tasks = new Map<string, TaskDef>();
    const broken = new Map<string, TaskProblem>();
    const problems: TaskProblem[] = [];
    const seen = new Set<string>();
    // One stat per file (all at once), then only files whose fingerprint changed are read
    // again: a change to one recipe of a 1,000-task directory re-reads one file, not all.
    const fingerprints = await Promise.all(
      files.map(async (f) => (await bundle.stat(f))?.fingerprint),
    );
    for (const [i, file] of files.entries()) {
      seen.add(file);
      const fingerprint = fingerprints[i];
      let entry = parsed.get(file);
      if (entry === undefined || fingerprint === undefined || entry.fingerprint !== fingerprint) {
        const text = await bundle.readText(file);
        entry =
          entry?.text === text
            ? { ...entry, fingerprint }
            : { text, fingerprint, result: loadTask(text, file) };
        parsed.set(file, entry);
      }
      const text = entry.text;
      const result = entry.result;
      if (result.ok) {
        const task =
          result.task.source === undefined ? { ...result.task, source: file } : result.task;
        if (tasks.has(task.name)) {
          problems.push({
            file,
            line: 1,
            col: 1,
            message: `duplicate task "${task.name}" (already defined in ${tasks.get(task.name)?.source ?? 'another file'})`,
            slug: task.name,
          });
        } else tasks.set(task.name, task);
      } else {
        const first = result.diagnostics.find((d) => d.severity !== 'warning') ??
          result.diagnostics[0] ?? {
            file,
            line: 1,
            col: 1,
            message: 'invalid task file',
          };
        const slug = guessSlug(text, file);
        const problem: TaskProblem = {
          file: first.file,
          line: first.line,
          col: first.col,
          message: first.message,
          ...(slug === undefined ? {} : { slug }),
        };
        problems.push(problem);
        if (slug !== undefined && !broken.has(slug)) broken.set(slug, problem);
      }
    }
    for (const file of parsed.keys()) if (!seen.has(file)) parsed.delete(file);
    logger.debug(
      { version, tasks: tasks.size, problems: problems.length },
      'task registry reloaded',
    );
    return { version, tasks, broken, problems };
  }

  async function snapshot(): Promise<Snapshot> {
    const version = await bundle.version();
    if (current?.version === version) return current;
    if (loading === undefined) {
      loading = load(version).finally(() => {
        loading = undefined;
      });
    }
    const next = await loading;
    current = next;
    // A change landing during the load is picked up by the next call (version differs again).
    return next;
  }

  return {
    async list() {
      const snap = await snapshot();
      return [...snap.tasks.values()]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((t) => ({
          name: t.name,
          poolTag: t.poolTag,
          transports: t.transports,
          timeoutMs: t.timeoutMs ?? defaultTimeoutMs,
          input: t.input,
        }));
    },
    async get(slug) {
      const snap = await snapshot();
      const task = snap.tasks.get(slug);
      if (task !== undefined) return task;
      const problem = snap.broken.get(slug);
      if (problem !== undefined) {
        throw new RunnerError(
          'ERR_RUNNER_INVALID_RECIPE',
          `${problem.file}:${problem.line}:${problem.col}: ${problem.message}`,
        );
      }
      throw new RunnerError('ERR_RUNNER_UNKNOWN_TASK', `unknown task: ${slug}`);
    },
    async count() {
      return (await snapshot()).tasks.size;
    },
    async problems() {
      return [...(await snapshot()).problems];
    },
  };
}
