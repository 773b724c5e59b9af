/**
 * The TaskDef: webtasks' YAML task shape, and the typed form every recipe (`.task`,
 * `.webtask` or `.yaml`) is normalised into. The runner executes TaskDefs; the parser
 * produces them with source positions so run-time errors can point at `file:line:col`.
 */
import type { ActionName } from './actions.js';

/** A JSON-compatible value: what `data {…}`, `args […]` and `body {…}` hold. */
export type FlowValue =
  string | number | boolean | null | FlowValue[] | { [key: string]: FlowValue };

/** Where a construct starts in its source file (1-based line and column). */
export interface SourcePos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** Input types of the recipe language (aliases are normalised to these). */
export type InputType = 'string' | 'int' | 'float' | 'bool' | 'json';

/** One declared input: validates request bodies and is published in `GET /tasks`. */
export interface InputDef {
  readonly type: InputType;
  readonly required: boolean;
  /** Present only when declared. */
  readonly default?: FlowValue;
  readonly doc?: string;
}

/** Field kinds of `extract`. */
export type ExtractFieldKind = 'text' | 'attr' | 'html' | 'const';

/** Transforms applied to an extracted text/attr value. */
export type ExtractTransform = 'trim' | 'lower' | 'upper' | 'int' | 'long' | 'float';

/** One field of an `extract` step (`params.fields[name]`). */
export interface ExtractField {
  readonly kind: ExtractFieldKind;
  /** CSS selector inside the row; absent means the row element itself. */
  readonly selector?: string;
  /** Attribute name, for `attr`. */
  readonly name?: string;
  /** Literal value, for `const`. */
  readonly value?: FlowValue;
  readonly transform?: ExtractTransform;
}

/** One step of a flow: an action with its (possibly templated) parameters. */
export interface StepDef {
  /** Canonical action name (see ACTIONS). */
  readonly run: ActionName;
  /** Binding name for the result; `_` or absent binds nothing. */
  readonly as?: string;
  /** Status text emitted as an SSE `status` event before the step runs (templated). */
  readonly status?: string;
  /** Screencast this step alone to a GIF and emit a `recording` event. */
  readonly record?: boolean;
  /** Parameters after defaults are applied; values may hold `{{…}}` templates. */
  readonly params: Readonly<Record<string, FlowValue>>;
  /** Child steps of block actions (record, for-each, loop, capture-network, console). */
  readonly do?: readonly StepDef[];
  /** Where the step starts in its source, when known. */
  readonly pos?: SourcePos;
}

/** Invocation styles a task declares (metadata in `GET /tasks`). */
export type Transport = 'rest' | 'sse' | 'websocket' | 'async';

/** A whole task, as loaded from a recipe or a YAML TaskDef. */
export interface TaskDef {
  /** The slug: `POST /tasks/<name>`; may contain `/`. */
  readonly name: string;
  /** Pool tag; `default` when not declared. */
  readonly poolTag: string;
  readonly transports: readonly Transport[];
  /** Whole-run deadline in ms; absent means the service default (SERVICE_TASK_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  readonly input: Readonly<Record<string, InputDef>>;
  /** Slug of an idempotent setup task run first in the same window. */
  readonly setupTask?: string;
  readonly flow: readonly StepDef[];
  /** Source file the task came from, relative to the bundle root, when known. */
  readonly source?: string;
}
