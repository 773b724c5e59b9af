/** Minimal structured logger (pino fits it): context object first, constant message second. */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const noop = (): void => undefined;

/** A Logger that drops everything: the default of every option that takes a logger. */
export const noopLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
