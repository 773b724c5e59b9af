/**
 * Run events: what an SSE caller sees (`status`, `progress`/custom kinds, `recording`,
 * then exactly one terminal `done` or `error`). Synchronous callers get {@link noopPublisher}.
 */

/** One non-terminal event: `{kind, text, data}` (the SSE `data:` payload is `{text, data}`). */
export interface RunEvent {
  /** `status`, `progress`, `recording` or any custom kind. */
  readonly kind: string;
  readonly text: string;
  readonly data?: unknown;
}

/** The terminal event of a run: `done` with `{ok:true, data}` or `error` with `{message}`. */
export type TerminalEvent =
  | { readonly kind: 'done'; readonly payload: { readonly ok: true; readonly data: unknown } }
  | { readonly kind: 'error'; readonly payload: { readonly message: string } };

/** Receives a run's events. `publish` may be async (an SSE stream awaiting drain). */
export interface Publisher {
  publish(event: RunEvent): void | Promise<void>;
  /** Called exactly once per run with the terminal event; optional. */
  end?(event: TerminalEvent): void | Promise<void>;
}

/** The publisher for synchronous callers: every event is dropped. */
export const noopPublisher: Publisher = {
  publish: () => undefined,
  end: () => undefined,
};

/**
 * The SSE form of an event (`event: <kind>` + `data: <json>`) as `{event, data}`: what a
 * stream writer sends. Terminal events map to `done`/`error` with their payloads.
 */
export function toSseEvent(event: RunEvent | TerminalEvent): { event: string; data: unknown } {
  if ('payload' in event) return { event: event.kind, data: event.payload };
  return { event: event.kind, data: { text: event.text, data: event.data ?? null } };
}

/** A publisher that keeps every event in memory (tests, the CLI's stderr printer). */
export class CollectingPublisher implements Publisher {
  /** Every non-terminal event, in order. */
  readonly events: RunEvent[] = [];
  /** The terminal event, once the run ended. */
  terminal: TerminalEvent | undefined;

  /** Records the event. */
  publish(event: RunEvent): void {
    this.events.push(event);
  }

  /** Records the terminal event. */
  end(event: TerminalEvent): void {
    this.terminal = event;
  }
}
