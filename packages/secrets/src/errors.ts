/**
 * Stable error codes of `@browsertask/secrets`. Consumers branch on these, never on messages.
 *
 * - `ERR_SECRETS_REQUIRED`: one or more `required` secrets have no value after every source
 *   and the default were tried (the server must refuse to start).
 * - `ERR_SECRETS_PROMPT_CANCELLED`: the user cancelled an interactive prompt (Ctrl-C / Esc).
 * - `ERR_SECRETS_PROMPT_FAILED`: the interactive prompt failed (closed stream, broken terminal).
 * - `ERR_SECRETS_ABORTED`: resolution was aborted through its `signal`.
 */
export type SecretsErrorCode =
  | 'ERR_SECRETS_REQUIRED'
  | 'ERR_SECRETS_PROMPT_CANCELLED'
  | 'ERR_SECRETS_PROMPT_FAILED'
  | 'ERR_SECRETS_ABORTED';

/** Options of {@link SecretsError}. */
export interface SecretsErrorOptions {
  /** The underlying error, if any. */
  cause?: unknown;
  /** Names of the secrets the error is about (for `ERR_SECRETS_REQUIRED`: every missing one). */
  names?: readonly string[];
}

/** The one error class of this package; `code` says what went wrong. */
export class SecretsError extends Error {
  /** Stable machine-readable code. */
  readonly code: SecretsErrorCode;
  /** Names of the secrets concerned (every missing secret for `ERR_SECRETS_REQUIRED`). */
  readonly names: readonly string[];

  constructor(code: SecretsErrorCode, message: string, options: SecretsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SecretsError';
    this.code = code;
    this.names = options.names ?? [];
  }
}
