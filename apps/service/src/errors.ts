/**
 * Stable error codes of the service: the CLI prints the message and exits non-zero;
 * tests and callers branch on `code`.
 */
export type ServiceErrorCode =
  /** A `SERVICE_*` environment variable has an invalid value. */
  | 'ERR_SERVICE_ENV'
  /** A bundle config file (pool, static-mounts, secrets) is missing a required shape. */
  | 'ERR_SERVICE_CONFIG_FILE'
  /** The bundle could not be opened, or holds invalid recipes. */
  | 'ERR_SERVICE_BUNDLE'
  /** A required secret has no value. */
  | 'ERR_SERVICE_SECRETS'
  /** The browser or the pools failed to start. */
  | 'ERR_SERVICE_BROWSER'
  /** The HTTP server could not listen. */
  | 'ERR_SERVICE_LISTEN'
  /** A command-line usage error (unknown flag, missing argument). */
  | 'ERR_SERVICE_USAGE'
  /** `init` or `bundle` would overwrite something that exists. */
  | 'ERR_SERVICE_EXISTS';

/** Base error of the service: a stable `code` and an actionable message. */
export class ServiceError extends Error {
  /** Stable machine-readable code. */
  readonly code: ServiceErrorCode;

  constructor(code: ServiceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceError';
    this.code = code;
  }
}

/** Whether `err` is an Error carrying a string `code` (any package's error). */
export function errorCode(err: unknown): string | undefined {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/** The message of any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
