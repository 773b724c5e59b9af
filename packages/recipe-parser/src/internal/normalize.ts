/**
 * Validation and defaults shared by the recipe parser and the YAML loader: one place
 * decides what a valid step is, so `.task` and `.yaml` behave the same.
 */
import { ACTIONS, type ActionName, type ParamSpec } from '../actions.js';
import type { ExtractFieldKind, ExtractTransform, FlowValue } from '../taskdef.js';
import { didYouMean } from './suggest.js';

/** A step while it is being built (StepDef is readonly once published). */
export interface MutableStep {
  run: ActionName;
  as?: string;
  status?: string;
  record?: boolean;
  params: Record<string, FlowValue>;
  do?: MutableStep[];
  pos?: { file: string; line: number; col: number };
}

/** Where normalisation reports problems; `param` points at a parameter when known. */
export interface NormalizeSink {
  error(message: string, param?: string): void;
}

/** Field kinds of extract, in documentation order. */
export const FIELD_KINDS: readonly ExtractFieldKind[] = ['text', 'attr', 'html', 'const'];
/** Transforms of extract text/attr fields. */
export const TRANSFORMS: readonly ExtractTransform[] = [
  'trim',
  'lower',
  'upper',
  'int',
  'long',
  'float',
];

const TYPE_WORDS: Record<ParamSpec['type'], string> = {
  string: 'a string',
  int: 'an integer',
  number: 'a number',
  bool: 'true or false',
  list: 'a list',
  map: 'a map',
  any: 'a value',
};

function isPlainObject(v: unknown): v is Record<string, FlowValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: FlowValue): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'a map';
  return JSON.stringify(v);
}

/** Whether a literal value fits a parameter type (strings fit anything: run-time coercion). */
export function fitsType(type: ParamSpec['type'], v: FlowValue): boolean {
  if (typeof v === 'string' || type === 'any') return true;
  switch (type) {
    case 'string':
      return typeof v === 'number' || typeof v === 'boolean';
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'list':
      return Array.isArray(v);
    case 'map':
      return isPlainObject(v);
  }
}

/** A JSON-compatible deep copy (defaults must never be shared between steps). */
export function cloneValue<T extends FlowValue>(v: T): T {
  return typeof v === 'object' && v !== null ? structuredClone(v) : v;
}

function checkFields(fields: FlowValue, sink: NormalizeSink, label: string): void {
  if (typeof fields === 'string') return;
  if (!isPlainObject(fields)) {
    sink.error(
      `\`fields\` of \`${label}\` must be a map of field name → {kind, selector, …}`,
      'fields',
    );
    return;
  }
  if (Object.keys(fields).length === 0) {
    sink.error(`\`${label}\` needs at least one field (e.g. \`title text "h1"\`)`, 'fields');
    return;
  }
  for (const [name, spec] of Object.entries(fields)) {
    if (!isPlainObject(spec)) {
      sink.error(`field \`${name}\` of \`${label}\` must be a map with a \`kind\``, 'fields');
      continue;
    }
    const kind = spec['kind'];
    if (typeof kind !== 'string' || !(FIELD_KINDS as readonly string[]).includes(kind)) {
      const k = typeof kind === 'string' ? kind : '';
      sink.error(
        `unknown field kind \`${k}\` for field \`${name}\`${didYouMean(k, FIELD_KINDS)} (expected text, attr, html or const)`,
        'fields',
      );
      continue;
    }
    for (const key of Object.keys(spec)) {
      if (!['kind', 'selector', 'name', 'value', 'transform'].includes(key)) {
        sink.error(
          `unknown key \`${key}\` in field \`${name}\` (expected kind, selector, name, value, transform)`,
          'fields',
        );
      }
    }
    if (spec['selector'] !== undefined && typeof spec['selector'] !== 'string') {
      sink.error(`\`selector\` of field \`${name}\` must be a string`, 'fields');
    }
    if (kind === 'attr' && typeof spec['name'] !== 'string') {
      sink.error(`field \`${name}\` (attr) needs the attribute \`name\``, 'fields');
    }
    if (kind === 'const' && spec['value'] === undefined) {
      sink.error(`field \`${name}\` (const) needs a \`value\``, 'fields');
    }
    const t = spec['transform'];
    if (
      t !== undefined &&
      (typeof t !== 'string' || !(TRANSFORMS as readonly string[]).includes(t))
    ) {
      const ts = typeof t === 'string' ? t : '';
      sink.error(
        `unknown transform \`${ts}\` for field \`${name}\`${didYouMean(ts, TRANSFORMS)} (expected ${TRANSFORMS.join(', ')})`,
        'fields',
      );
    }
  }
}

const LOOP_CONDITIONS = ['while', 'until', 'whileFn', 'untilFn'] as const;

/**
 * Validate one step (not its children) and apply the ACTIONS defaults to its params.
 * `label` names the step in messages (the keyword as written, or the run name).
 */
export function normalizeStep(step: MutableStep, label: string, sink: NormalizeSink): void {
  const spec = ACTIONS[step.run];
  const params = step.params;
  const specs = spec.params as Readonly<Record<string, ParamSpec>>;

  if (step.as === '_' || step.as === '') delete step.as;
  if (step.status === '') delete step.status;
  if (step.record === false) delete step.record;

  // webtasks TaskDefs write `set` as `as: rows` + `value`: the binding name is the step name.
  if (step.run === 'set' && params['name'] === undefined && step.as !== undefined) {
    params['name'] = step.as;
  }

  for (const [name, value] of Object.entries(params)) {
    if (!Object.hasOwn(specs, name)) continue;
    const ps = specs[name]!;
    if (value === null && ps.type !== 'any') {
      delete params[name];
      continue;
    }
    if (!fitsType(ps.type, value)) {
      sink.error(
        `\`${name}\` of \`${label}\` must be ${TYPE_WORDS[ps.type]}, found ${describe(value)}`,
        name,
      );
      continue;
    }
    if (ps.enum && typeof value === 'string' && !value.includes('{{') && !ps.enum.includes(value)) {
      const shown = [...new Set(ps.enum.map((e) => (name === 'method' ? e.toUpperCase() : e)))];
      sink.error(
        `\`${name}\` of \`${label}\` must be one of ${shown.join(', ')}, found \`${value}\`${didYouMean(value, ps.enum)}`,
        name,
      );
    }
  }

  for (const [name, ps] of Object.entries(specs)) {
    if (ps.required && params[name] === undefined) {
      if (step.run === 'extract' && name === 'fields') {
        sink.error(`\`${label}\` needs at least one field (e.g. \`title text "h1"\`)`);
      } else {
        sink.error(`\`${label}\` is missing its required parameter \`${name}\``);
      }
    }
  }

  switch (step.run) {
    case 'extract':
      if (params['fields'] !== undefined) checkFields(params['fields'], sink, label);
      break;
    case 'js': {
      const hasFn = params['fn'] !== undefined;
      const hasScript = params['script'] !== undefined;
      if (!hasFn && !hasScript)
        sink.error(`\`${label}\` needs \`fn <module>\` or \`script "<source>"\``);
      else if (hasFn && hasScript)
        sink.error(`\`${label}\` takes either \`fn\` or \`script\`, not both`, 'script');
      break;
    }
    case 'loop': {
      const present = LOOP_CONDITIONS.filter((c) => params[c] !== undefined);
      if (present.length === 0) {
        sink.error(
          `\`${label}\` needs a condition: \`while js "…"\`, \`until js "…"\`, \`while fn "…"\` or \`until fn "…"\``,
        );
      } else if (present.length > 1) {
        sink.error(
          `\`${label}\` takes one condition, found ${present.map((c) => `\`${c}\``).join(' and ')}`,
          present[1],
        );
      }
      break;
    }
    case 'html-to-pdf':
      if (params['html'] === undefined && params['file'] === undefined) {
        sink.error(`\`${label}\` needs \`html "<source>"\` or \`file "<path>"\``);
      }
      break;
    case 'set-cookies':
      if (params['cookies'] === undefined && params['file'] === undefined) {
        sink.error(`\`${label}\` needs \`cookies [ … ]\` or \`file "<path>"\``);
      }
      break;
    default:
      break;
  }

  if (
    'needsPathOrName' in spec &&
    spec.needsPathOrName &&
    step.as === undefined &&
    params['path'] === undefined
  ) {
    sink.error(
      `\`${label}\` needs a result name or \`path "<file>"\` (otherwise its result goes nowhere)`,
    );
  }

  for (const [name, ps] of Object.entries(specs)) {
    if (params[name] === undefined && ps.default !== undefined) {
      params[name] = cloneValue(ps.default as FlowValue);
    }
  }

  if (spec.block === 'steps') step.do ??= [];
}
