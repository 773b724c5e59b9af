/**
 * The published JSON Schema of the YAML TaskDef (also written to
 * `schema/taskdef.schema.json`). It checks the shape; action parameters are checked
 * against ACTIONS by the loader, which gives better messages.
 */
import { ACTION_NAMES } from './actions.js';

/** JSON Schema (draft-07) of a TaskDef document as written in `tasks/**\/*.yaml`. */
export const taskDefSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://github.com/browsertask/browsertask/schema/taskdef.schema.json',
  title: 'browsertask TaskDef',
  description: 'One task: webtasks-compatible YAML form of a recipe.',
  type: 'object',
  required: ['name', 'flow'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      description: 'Task slug: POST /tasks/<name>; may contain `/`.',
    },
    poolTag: {
      type: 'string',
      minLength: 1,
      default: 'default',
      description: 'Pool the task leases a window from.',
    },
    transports: {
      type: ['array', 'null'],
      items: { enum: ['rest', 'sse', 'websocket', 'async'] },
      description: 'Declared invocation styles.',
    },
    timeoutMs: {
      anyOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', pattern: '^[1-9][0-9_]*$' },
      ],
      description: 'Whole-run deadline in milliseconds.',
    },
    setupTask: {
      type: ['string', 'null'],
      description: 'Idempotent setup task run first in the same window.',
    },
    input: {
      type: ['object', 'null'],
      additionalProperties: { $ref: '#/definitions/input' },
      description: 'Declared inputs by name.',
    },
    flow: {
      type: 'array',
      items: { $ref: '#/definitions/step' },
      description: 'The steps, in order.',
    },
  },
  definitions: {
    input: {
      type: 'object',
      properties: {
        type: { enum: ['string', 'int', 'integer', 'float', 'number', 'bool', 'boolean', 'json'] },
        required: { type: 'boolean' },
        default: {},
        doc: { type: ['string', 'null'] },
      },
    },
    step: {
      type: 'object',
      required: ['run'],
      properties: {
        run: { type: 'string', enum: [...ACTION_NAMES] },
        as: { type: ['string', 'null'] },
        status: { type: ['string', 'null'] },
        record: { type: 'boolean' },
        params: { type: ['object', 'null'] },
        do: { type: ['array', 'null'], items: { $ref: '#/definitions/step' } },
      },
    },
  },
} as const;
