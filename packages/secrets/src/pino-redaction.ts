import type { Redactor } from './redactor.js';

/** The pino options (`hooks` and `formatters`) that redact structured log data. */
export interface PinoRedactionOptions {
  hooks: {
    /** Redacts every argument of a log call: merge object, message, format arguments, errors. */
    logMethod(
      this: unknown,
      args: unknown[],
      method: (this: unknown, ...args: unknown[]) => void,
      level: number,
    ): void;
  };
  formatters: {
    /** Redacts the merged log object (covers `mixin` output too). */
    log(object: Record<string, unknown>): Record<string, unknown>;
    /** Redacts child-logger bindings. */
    bindings(bindings: Record<string, unknown>): Record<string, unknown>;
  };
}

/**
 * pino options that mask sensitive values in everything a log call receives.
 * Spread them into `pino({...})` and also wrap the destination with
 * {@link createRedactingDestination}, which catches what structured redaction cannot see
 * (class instances, custom serializers).
 *
 * @example
 * const logger = pino({ level, ...pinoRedaction(redactor) }, createRedactingDestination(redactor, pino.destination(1)));
 */
export function pinoRedaction(redactor: Redactor): PinoRedactionOptions {
  return {
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => redactor.redactDeep(arg)),
        );
      },
    },
    formatters: {
      log: (object) => redactor.redactDeep(object),
      bindings: (bindings) => redactor.redactDeep(bindings),
    },
  };
}

/** Anything pino can write serialised log lines to. */
export interface LineDestination {
  write(line: string): unknown;
}

/** A destination whose every written line has passed through `redactSerialized`. */
export interface RedactingDestination extends LineDestination {
  /** Forwarded to the wrapped destination when it has one (pino calls it on exit). */
  flushSync?(): void;
  /** Forwarded to the wrapped destination when it has one (`logger.flush(cb)`). */
  flush?(cb?: (err?: Error | null) => void): void;
  /** Forwarded to the wrapped destination when it has one. */
  end?(): void;
}

/**
 * Wrap a pino destination (`pino.destination()`, a stream, any `{ write(line) }`) so every
 * serialised line has each sensitive value masked, raw or JSON-escaped. This is the last
 * line of defence: nothing reaches the destination without passing through it.
 *
 * @example
 * const dest = createRedactingDestination(redactor, pino.destination({ dest: 1, sync: false }));
 */
export function createRedactingDestination(
  redactor: Redactor,
  destination: LineDestination & {
    flushSync?(): void;
    flush?(cb?: (err?: Error | null) => void): void;
    end?(): void;
  },
): RedactingDestination {
  const wrapped: RedactingDestination = {
    write: (line: string) => destination.write(redactor.redactSerialized(line)),
  };
  if (typeof destination.flushSync === 'function')
    wrapped.flushSync = () => destination.flushSync?.();
  if (typeof destination.flush === 'function') wrapped.flush = (cb) => destination.flush?.(cb);
  if (typeof destination.end === 'function') wrapped.end = () => destination.end?.();
  return wrapped;
}
