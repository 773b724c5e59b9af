/**
 * Input binding (stage 2 of a run): declared inputs are checked and coerced with ajv
 * (`coerceTypes`), defaults applied, missing required ones collected in declaration order
 * into `missing required input(s): a, b`. Keys the caller sends that are not declared pass
 * through unchanged, as in webtasks (the `input` block is a contract, not a whitelist).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { InputDef, InputType, TaskDef } from '@browsertask/recipe-parser';
import { RunnerError } from './errors.js';

const ajv = new Ajv({ coerceTypes: true, allErrors: true, strict: false });
const validators = new WeakMap<object, ValidateFunction>();

const JSON_TYPES: Record<InputType, string | undefined> = {
  string: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  json: undefined,
};

/** Accepts the aliases design.md allows (`integer`, `number`, `boolean`). */
function normaliseType(type: string): InputType {
  switch (type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    default:
      return type as InputType;
  }
}

function validatorFor(inputs: Readonly<Record<string, InputDef>>): ValidateFunction {
  const cached = validators.get(inputs);
  if (cached !== undefined) return cached;
  const properties: Record<string, object> = {};
  for (const [name, def] of Object.entries(inputs)) {
    const jsonType = JSON_TYPES[normaliseType(def.type)];
    properties[name] = jsonType === undefined ? {} : { type: jsonType };
  }
  const validate = ajv.compile({ type: 'object', properties });
  validators.set(inputs, validate);
  return validate;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * Validates and binds a request body against a task's declared inputs.
 *
 * @param task - the task (only `input` is read)
 * @param body - the request body; `undefined`/`null` means `{}`
 * @returns the initial bindings: every body key plus defaults, coerced to declared types
 * @throws RunnerError `ERR_RUNNER_MISSING_INPUT` (`missing required input(s): <names>`),
 *   `ERR_RUNNER_INVALID_INPUT` (body not an object, or an input of the wrong type)
 */
export function bindInputs(task: Pick<TaskDef, 'input'>, body: unknown): Record<string, unknown> {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new RunnerError('ERR_RUNNER_INVALID_INPUT', 'input must be a JSON object');
  }
  const bindings: Record<string, unknown> = { ...((body as Record<string, unknown> | null) ?? {}) };
  const missing: string[] = [];
  for (const [name, def] of Object.entries(task.input)) {
    if (bindings[name] === undefined || bindings[name] === null) {
      if (def.default !== undefined) bindings[name] = structuredClone(def.default);
      else delete bindings[name];
    }
    if (def.required && isMissing(bindings[name])) missing.push(name);
  }
  if (missing.length > 0) {
    throw new RunnerError(
      'ERR_RUNNER_MISSING_INPUT',
      `missing required input(s): ${missing.join(', ')}`,
    );
  }
  const validate = validatorFor(task.input);
  if (!validate(bindings)) {
    const problems = (validate.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '').split('/')[0] ?? '';
      const def = task.input[name];
      return `input "${name}": expected ${def?.type ?? 'a valid value'}, got ${JSON.stringify(
        (body as Record<string, unknown>)[name],
      )}`;
    });
    throw new RunnerError('ERR_RUNNER_INVALID_INPUT', problems.join('; '));
  }
  return bindings;
}
