/**
 * Logging: the Logger interface every package accepts, a no-op default, and the
 * service's pino logger whose every line passes through the secrets redactor.
 */
import { pino, type DestinationStream } from 'pino';
import type { LogLevel } from './config.js';

/** The logging surface packages accept (pino fits it). Context object first, constant message. */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A Logger that drops everything. */
export const noopLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A pino logger plus the hook that installs the redactor once secrets are resolved. */
export interface ServiceLogger {
  /** The pino instance (also a {@link Logger}). */
  readonly logger: pino.Logger;
  /**
   * Installs the function every serialised log line passes through before it is
   * written (the secrets redactor): sensitive values never reach a log line.
   */
  readonly setRedact: (redact: (text: string) => string) => void;
}

/** Options of {@link createServiceLogger}. */
export interface ServiceLoggerOptions {
  /** pino level. @default 'info' */
  readonly level?: LogLevel;
  /** Where lines go. @default stderr (fd 2), synchronously */
  readonly destination?: DestinationStream;
}

/**
 * Creates the service's JSON logger (pino). Redaction works on the serialised line,
 * so a secret is hidden wherever it appears: message, context, error stack.
 * @example const { logger, setRedact } = createServiceLogger({ level: 'info' });
 */
export function createServiceLogger(options: ServiceLoggerOptions = {}): ServiceLogger {
  let redact: (text: string) => string = (text) => text;
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { service: 'browsertask' },
      hooks: { streamWrite: (line) => redact(line) },
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
  return {
    logger,
    setRedact: (fn) => {
      redact = fn;
    },
  };
}
