/** A tiny structured logger interface; pino fits it. Context object first, constant message. */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const noop = (): void => {};

/** A logger that discards everything (the default of every option taking a logger). */
export const noopLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
