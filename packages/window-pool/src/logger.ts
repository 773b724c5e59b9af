/**
 * The logging surface this package uses; pino's logger fits it. Context object first,
 * constant message second: `log.info({ pool, windowId }, 'window leased')`.
 */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A {@link Logger} that drops everything (the default). */
export const noopLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
