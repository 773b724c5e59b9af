/** The JSON Schema of a task's inputs, for validating request bodies. */
import type { InputType, TaskDef } from './taskdef.js';

const JSON_TYPES: Record<InputType, string | undefined> = {
  string: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  json: undefined,
};

/** JSON Schema of one task's request body, from its `input` declarations. */
export interface InputJsonSchema {
  readonly type: 'object';
  readonly properties: Record<string, Record<string, unknown>>;
  readonly required: string[];
  readonly additionalProperties: true;
}

/**
 * The task's inputs as a JSON Schema object: one property per input with its JSON type
 * (`json` inputs accept any value), `default` when declared and `description` from
 * `doc`. An input is listed in `required` only when it is required and has no default.
 * Undeclared keys are allowed (they pass through as bindings, as in webtasks). Compile
 * it with ajv `{ coerceTypes: true, useDefaults: true }`.
 *
 * @example
 * const validate = new Ajv({ coerceTypes: true, useDefaults: true }).compile(inputJsonSchema(task));
 */
export function inputJsonSchema(task: Pick<TaskDef, 'input'>): InputJsonSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const [name, def] of Object.entries(task.input)) {
    const type = JSON_TYPES[def.type];
    properties[name] = {
      ...(type !== undefined ? { type } : {}),
      ...(def.default !== undefined ? { default: structuredClone(def.default) } : {}),
      ...(def.doc !== undefined && def.doc !== '' ? { description: def.doc } : {}),
    };
    if (def.required && def.default === undefined) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: true };
}
