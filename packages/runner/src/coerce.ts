/**
 * Run-time coercion of rendered step parameters to their declared ParamSpec type:
 * templated strings are accepted for every type at parse time, so `"1_500"` becomes 1500
 * and `"true"` becomes true here. A value that cannot be coerced fails naming step and param.
 */
import { ACTIONS, type ActionName, type ParamSpec } from '@browsertask/recipe-parser';
import { RunnerError } from './errors.js';

function fail(step: string, param: string, expected: string, value: unknown): never {
  throw new RunnerError(
    'ERR_RUNNER_INVALID_PARAM',
    `step "${step}": param "${param}": expected ${expected}, got ${JSON.stringify(value) ?? String(value)}`,
    { step },
  );
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const text = value.trim().replace(/_/g, '');
    if (text === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
    return Number(text);
  }
  return undefined;
}

function toBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (['true', 'yes', 'on', '1'].includes(text)) return true;
    if (['false', 'no', 'off', '0', ''].includes(text)) return false;
  }
  return undefined;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Coerces one rendered value to a ParamSpec type; `undefined` stays `undefined`.
 *
 * @throws RunnerError `ERR_RUNNER_INVALID_PARAM` naming step and param
 */
export function coerceParam(step: string, name: string, spec: ParamSpec, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  let out: unknown;
  switch (spec.type) {
    case 'string':
      if (typeof value === 'string') out = value;
      else if (typeof value === 'number' || typeof value === 'boolean') out = String(value);
      else out = JSON.stringify(value);
      break;
    case 'int': {
      const n = toNumber(value);
      if (n === undefined || !Number.isInteger(n)) fail(step, name, 'an integer', value);
      out = n;
      break;
    }
    case 'number': {
      const n = toNumber(value);
      if (n === undefined) fail(step, name, 'a number', value);
      out = n;
      break;
    }
    case 'bool': {
      const b = toBool(value);
      if (b === undefined) fail(step, name, 'a boolean', value);
      out = b;
      break;
    }
    case 'list':
      if (Array.isArray(value)) out = value;
      else if (typeof value === 'string') {
        const parsed = value.trim() === '' ? [] : parseJson(value);
        if (!Array.isArray(parsed)) fail(step, name, 'a list', value);
        out = parsed;
      } else fail(step, name, 'a list', value);
      break;
    case 'map':
      if (typeof value === 'object' && !Array.isArray(value)) out = value;
      else if (typeof value === 'string') {
        const parsed = parseJson(value);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
          fail(step, name, 'a map', value);
        }
        out = parsed;
      } else fail(step, name, 'a map', value);
      break;
    default:
      out = value;
  }
  if (spec.enum !== undefined && typeof out === 'string' && !spec.enum.includes(out)) {
    fail(step, name, `one of ${spec.enum.join(', ')}`, out);
  }
  return out;
}

/**
 * Coerces every parameter of a rendered step per ACTIONS, applying catalogue defaults for
 * omitted ones and checking required ones. Unknown parameters pass through untouched.
 *
 * @throws RunnerError `ERR_RUNNER_INVALID_PARAM`
 */
export function coerceParams(
  run: ActionName,
  step: string,
  params: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const specs: Readonly<Record<string, ParamSpec>> = ACTIONS[run].params;
  const out: Record<string, unknown> = { ...params };
  for (const [name, spec] of Object.entries(specs)) {
    let value = coerceParam(step, name, spec, params[name]);
    if (value === undefined && spec.default !== undefined) value = spec.default;
    if (value === undefined) {
      if (spec.required === true) {
        throw new RunnerError(
          'ERR_RUNNER_INVALID_PARAM',
          `step "${step}": missing required param "${name}"`,
          { step },
        );
      }
      delete out[name];
    } else {
      out[name] = value;
    }
  }
  return out;
}
