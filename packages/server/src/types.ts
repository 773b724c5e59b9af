/**
 * The small interfaces the server needs from the rest of the service. `apps/service`
 * fills them with the runner and the window pools; the server imports neither.
 */

/** One declared input of a task, as published by `GET /tasks`. */
export interface InputDescriptor {
  readonly type: string;
  readonly required: boolean;
  /** Present only when the task declares a default. */
  readonly default?: unknown;
  readonly doc?: string;
}

/** One element of the `GET /tasks` array. */
export interface TaskListingEntry {
  /** Task slug (may contain `/`). */
  readonly name: string;
  readonly poolTag: string;
  readonly transports: readonly string[];
  readonly timeoutMs: number;
  readonly input: Readonly<Record<string, InputDescriptor>>;
}

/** The live (hot-reloaded) task registry, as the HTTP layer sees it. */
export interface TaskCatalogue {
  /** Every registered task, re-read on each call. */
  list(): Promise<readonly TaskListingEntry[]> | readonly TaskListingEntry[];
  /** Number of registered tasks, re-counted on each call. */
  count(): Promise<number> | number;
}

/** A non-terminal run event: sent on SSE as `event: <kind>` + `data: {text, data}`. */
export interface RunEvent {
  /** `status`, `progress`, `recording` or any custom kind (`done`/`error` are reserved). */
  readonly kind: string;
  readonly text: string;
  readonly data?: unknown;
}

/** Receives a run's events; may return a promise (the SSE writer awaits `drain`). */
export type PublishFn = (event: RunEvent) => void | Promise<void>;

/** What {@link RunTask} receives besides the name and the input. */
export interface RunTaskContext {
  /** Aborts when the client disconnects: the run should stop and release its window. */
  readonly signal: AbortSignal;
  /** Event sink: the SSE stream, or a no-op for synchronous callers. */
  readonly publish: PublishFn;
  /** The request's `X-Request-Id`, for log correlation. */
  readonly requestId: string;
}

/**
 * Runs one task and resolves with its `data`. Throwing fails the run: the error's
 * message (the spec's message, e.g. `unknown task: <slug>`) reaches the caller as 500
 * `EXECUTION_FAILED` or as the SSE `error` event.
 */
export type RunTask = (
  name: string,
  input: Readonly<Record<string, unknown>>,
  context: RunTaskContext,
) => Promise<unknown>;

/** Window counts of one pool, as in the health document. */
export interface PoolHealth {
  readonly size: number;
  readonly free: number;
  readonly busy: number;
}

/** Returns the pools' window counts by tag (the health document's `pools`). */
export type HealthFn = () =>
  Readonly<Record<string, PoolHealth>> | Promise<Readonly<Record<string, PoolHealth>>>;
