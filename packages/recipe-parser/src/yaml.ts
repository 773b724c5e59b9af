/**
 * The YAML form of a task: webtasks' TaskDef (`name`, `poolTag`, `transports`,
 * `timeoutMs`, `input`, `setupTask`, `flow: [{run, as, params, status, record, do}]`).
 */
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parseDocument, stringify, isMap, isNode, type Document } from 'yaml';
import { ACTIONS, ACTION_NAMES, isActionName, type ParamSpec } from './actions.js';
import { fileDiagnostic, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import type { RecipeErrorCode } from './errors.js';
import { FORMS } from './internal/keywords.js';
import { normalizeStep, type MutableStep } from './internal/normalize.js';
import { nullProto } from './internal/null-proto.js';
import { didYouMean } from './internal/suggest.js';
import type { LoadResult, ParseOptions } from './parse-recipe.js';
import { taskDefSchema } from './schema.js';
import { checkTemplateNames } from './template-refs.js';
import type { FlowValue, InputDef, InputType, StepDef, TaskDef, Transport } from './taskdef.js';

type Path = (string | number)[];

const INPUT_TYPES: Record<string, InputType> = nullProto({
  string: 'string',
  int: 'int',
  integer: 'int',
  float: 'float',
  number: 'float',
  bool: 'bool',
  boolean: 'bool',
  json: 'json',
});

/** Short parameter names accepted in YAML too (`timeout` → `timeoutMs`), by action. */
const PARAM_ALIASES: Record<string, Record<string, string>> = {};
for (const form of Object.values(FORMS)) {
  if (form.aliases) PARAM_ALIASES[form.run] = { ...PARAM_ALIASES[form.run], ...form.aliases };
}

const TASK_KEYS = ['name', 'poolTag', 'transports', 'timeoutMs', 'input', 'setupTask', 'flow'];
const STEP_KEYS = ['run', 'as', 'params', 'status', 'record', 'do'];

let validateTaskDef: ReturnType<Ajv['compile']> | undefined;
function validator(): ReturnType<Ajv['compile']> {
  validateTaskDef ??= new Ajv({ allErrors: true, strict: false }).compile(taskDefSchema);
  return validateTaskDef;
}

class YamlLoader {
  readonly diags: Diagnostic[] = [];
  private readonly lc = new LineCounter();
  private doc!: Document.Parsed;
  private readonly file: string;
  private readonly text: string;

  constructor(text: string, file: string) {
    this.text = text;
    this.file = file;
  }

  private at(path: Path, key = false): { line: number; col: number } {
    for (let p = path; ; p = p.slice(0, -1)) {
      let node: unknown;
      if (key && p === path && p.length > 0) {
        const parent = this.doc.getIn(p.slice(0, -1), true);
        if (isMap(parent)) {
          const pair = parent.items.find(
            (it) => isNode(it.key) && (it.key as { value?: unknown }).value === p[p.length - 1],
          );
          node = pair?.key;
        }
      } else node = p.length === 0 ? this.doc.contents : this.doc.getIn(p, true);
      if (isNode(node) && node.range) return this.lc.linePos(node.range[0]);
      if (p.length === 0) return { line: 1, col: 1 };
    }
  }

  private report(
    path: Path,
    message: string,
    code: RecipeErrorCode = 'ERR_RECIPE_INVALID',
    key = false,
  ): void {
    const { line, col } = this.at(path, key);
    this.diags.push({ file: this.file, line, col, message, severity: 'error', code });
  }

  private warn(path: Path, message: string, key = true): void {
    const { line, col } = this.at(path, key);
    this.diags.push({
      file: this.file,
      line,
      col,
      message,
      severity: 'warning',
      code: 'WARN_RECIPE_IGNORED',
    });
  }

  load(options: ParseOptions): LoadResult {
    this.doc = parseDocument(this.text, {
      lineCounter: this.lc,
      prettyErrors: false,
      uniqueKeys: true,
      logLevel: 'error',
    });
    for (const e of this.doc.errors) {
      const pos = e.linePos?.[0] ?? this.lc.linePos(e.pos[0]);
      this.diags.push({
        file: this.file,
        line: pos.line,
        col: pos.col,
        severity: 'error',
        code: 'ERR_RECIPE_SYNTAX',
        message: `invalid YAML: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      });
    }
    if (this.diags.length > 0) return { ok: false, diagnostics: sortDiagnostics(this.diags) };
    const data: unknown = this.doc.toJS({ maxAliasCount: 1000 });
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      this.report([], 'expected a TaskDef map with `name` and `flow`');
      return { ok: false, diagnostics: sortDiagnostics(this.diags) };
    }
    const validate = validator();
    if (!validate(data)) this.schemaErrors(validate.errors ?? []);
    const raw = data as Record<string, unknown>;
    for (const key of Object.keys(raw)) {
      if (!TASK_KEYS.includes(key))
        this.warn(
          [key],
          `unknown TaskDef field \`${key}\` is ignored${didYouMean(key, TASK_KEYS)}`,
        );
    }
    if (this.diags.some((d) => d.severity === 'error'))
      return { ok: false, diagnostics: sortDiagnostics(this.diags) };

    const flow = this.steps(raw['flow'] as unknown[], ['flow']);
    const timeout = raw['timeoutMs'];
    const input = this.inputs((raw['input'] ?? {}) as Record<string, Record<string, unknown>>);
    const setup = raw['setupTask'];
    const task: TaskDef = {
      name: raw['name'] as string,
      poolTag: (raw['poolTag'] as string | undefined) ?? 'default',
      transports: [...new Set((raw['transports'] ?? []) as Transport[])],
      ...(timeout !== undefined
        ? {
            timeoutMs:
              typeof timeout === 'string' ? Number(timeout.replace(/_/g, '')) : (timeout as number),
          }
        : {}),
      input,
      ...(typeof setup === 'string' && setup !== '' ? { setupTask: setup } : {}),
      flow,
      source: this.file,
    };
    if (this.diags.some((d) => d.severity === 'error'))
      return { ok: false, diagnostics: sortDiagnostics(this.diags) };
    const warnings = checkTemplateNames(task, options.knownNames ?? []);
    return { ok: true, task, warnings: sortDiagnostics([...this.diags, ...warnings]) };
  }

  private schemaErrors(errors: ErrorObject[]): void {
    const seen = new Set<string>();
    for (const e of errors) {
      const path: Path = e.instancePath
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      const where = e.instancePath === '' ? 'the TaskDef' : `\`${path.join('.')}\``;
      let message: string;
      if (e.keyword === 'enum' && path[path.length - 1] === 'run') {
        const run = String(this.doc.getIn(path));
        const alias = FORMS[run]?.run;
        message = `unknown action \`${run}\`${alias ? ` — did you mean \`${alias}\`?` : didYouMean(run, ACTION_NAMES)}`;
      } else if (e.keyword === 'required') {
        message = `${where} is missing the required field \`${String(e.params['missingProperty'])}\``;
      } else if (e.keyword === 'enum') {
        message = `${where} must be one of ${(e.params['allowedValues'] as unknown[]).join(', ')}`;
      } else if (e.keyword === 'anyOf' && path[0] === 'timeoutMs') {
        message = '`timeoutMs` must be a positive integer of milliseconds';
      } else if (
        e.keyword === 'type' ||
        e.keyword === 'minLength' ||
        e.keyword === 'minimum' ||
        e.keyword === 'pattern'
      ) {
        if (path[0] === 'timeoutMs') continue; // reported once by anyOf
        message = `${where} ${e.keyword === 'minLength' ? 'must not be empty' : `must be ${e.keyword === 'type' ? `of type ${String(e.params['type'])}` : (e.message ?? 'valid')}`}`;
      } else message = `${where} ${e.message ?? 'is invalid'}`;
      const k = `${e.instancePath}|${message}`;
      if (seen.has(k)) continue;
      seen.add(k);
      this.report(path, message);
    }
  }

  private inputs(raw: Record<string, Record<string, unknown>>): Record<string, InputDef> {
    const out: Record<string, InputDef> = {};
    for (const [name, def] of Object.entries(raw)) {
      const d = def ?? {};
      const type = (typeof d['type'] === 'string' ? INPUT_TYPES[d['type']] : undefined) ?? 'string';
      const doc = d['doc'];
      out[name] = {
        type,
        required: d['required'] === true,
        ...(d['default'] !== undefined && d['default'] !== null
          ? { default: d['default'] as FlowValue }
          : {}),
        ...(typeof doc === 'string' ? { doc } : {}),
      };
      for (const key of Object.keys(d)) {
        if (!['type', 'required', 'default', 'doc'].includes(key)) {
          this.warn(
            ['input', name, key],
            `unknown input field \`${key}\` is ignored (expected type, required, default, doc)`,
          );
        }
      }
    }
    return out;
  }

  private steps(list: unknown[], path: Path): StepDef[] {
    const out: StepDef[] = [];
    list.forEach((raw, i) => {
      const step = this.step(raw as Record<string, unknown>, [...path, i]);
      if (step) out.push(step);
    });
    return out;
  }

  private step(raw: Record<string, unknown>, path: Path): StepDef | undefined {
    const run = raw['run'] as string;
    if (!isActionName(run)) return undefined; // reported by the schema pass
    for (const key of Object.keys(raw)) {
      if (!STEP_KEYS.includes(key))
        this.warn(
          [...path, key],
          `unknown step field \`${key}\` is ignored${didYouMean(key, STEP_KEYS)}`,
        );
    }
    const specs = ACTIONS[run].params as Readonly<Record<string, ParamSpec>>;
    const aliases = PARAM_ALIASES[run] ?? {};
    const params: Record<string, FlowValue> = {};
    const rawParams = (raw['params'] ?? {}) as Record<string, FlowValue>;
    for (const [key, value] of Object.entries(rawParams)) {
      const name = Object.hasOwn(aliases, key) && !Object.hasOwn(specs, key) ? aliases[key]! : key;
      if (name !== key && Object.hasOwn(rawParams, name)) {
        this.report(
          [...path, 'params', key],
          `\`${key}\` and \`${name}\` of \`${run}\` are the same parameter; keep one`,
          'ERR_RECIPE_INVALID',
          true,
        );
        continue;
      }
      if (!Object.hasOwn(specs, name) && name !== 'path') {
        this.warn(
          [...path, 'params', key],
          `unknown parameter \`${key}\` for \`${run}\` is passed through unchanged${didYouMean(key, Object.keys(specs))}`,
        );
      }
      params[name] = value;
    }
    const pos = this.at(path);
    const step: MutableStep = {
      run,
      params,
      pos: { file: this.file, line: pos.line, col: pos.col },
    };
    if (typeof raw['as'] === 'string') step.as = raw['as'];
    if (typeof raw['status'] === 'string') step.status = raw['status'];
    if (raw['record'] === true) step.record = true;
    const children = raw['do'];
    if (Array.isArray(children) && children.length > 0 && ACTIONS[run].block !== 'steps') {
      this.report(
        [...path, 'do'],
        `\`${run}\` does not take \`do:\` steps (only record, capture-network, console, for-each and loop do)`,
        'ERR_RECIPE_INVALID',
        true,
      );
    }
    if (ACTIONS[run].block === 'steps')
      step.do = this.steps(Array.isArray(children) ? children : [], [
        ...path,
        'do',
      ]) as MutableStep[];
    normalizeStep(step, run, {
      error: (message, param) => {
        this.report(
          param !== undefined && Object.hasOwn(rawParams, param)
            ? [...path, 'params', param]
            : path,
          message,
        );
      },
    });
    return step;
  }
}

/**
 * Load a YAML TaskDef (hand-written or produced by {@link toYaml}): the same checks and
 * defaults as recipes, positions from the YAML nodes. Never throws.
 *
 * @example
 * const r = fromYaml(readFileSync('tasks/title.yaml', 'utf8'), 'tasks/title.yaml');
 */
export function fromYaml(text: string, file: string, options: ParseOptions = {}): LoadResult {
  try {
    return new YamlLoader(String(text), file).load(options);
  } catch (err) {
    return {
      ok: false,
      diagnostics: [
        fileDiagnostic(
          file,
          'ERR_RECIPE_SYNTAX',
          `internal YAML loader error: ${err instanceof Error ? err.message : String(err)}`,
        ),
      ],
    };
  }
}

function orderedParams(step: StepDef): Record<string, FlowValue> {
  const out: Record<string, FlowValue> = {};
  for (const key of Object.keys(ACTIONS[step.run].params)) {
    const v = step.params[key];
    if (v !== undefined) out[key] = v;
  }
  for (const [key, v] of Object.entries(step.params)) if (!(key in out)) out[key] = v;
  return out;
}

function stepToPlain(step: StepDef): Record<string, unknown> {
  return {
    run: step.run,
    ...(step.as !== undefined ? { as: step.as } : {}),
    ...(step.status !== undefined ? { status: step.status } : {}),
    ...(step.record ? { record: true } : {}),
    params: orderedParams(step),
    ...(step.do ? { do: step.do.map(stepToPlain) } : {}),
  };
}

/**
 * Render a TaskDef as webtasks-compatible YAML (the form `browsertask bundle` writes).
 * Deterministic: the same task gives the same bytes. `pos` and `source` are not written.
 */
export function toYaml(task: TaskDef): string {
  const plain = {
    name: task.name,
    poolTag: task.poolTag,
    transports: [...task.transports],
    ...(task.timeoutMs !== undefined ? { timeoutMs: task.timeoutMs } : {}),
    input: task.input,
    ...(task.setupTask !== undefined ? { setupTask: task.setupTask } : {}),
    flow: task.flow.map(stepToPlain),
  };
  return stringify(plain, { lineWidth: 0, aliasDuplicateObjects: false });
}
