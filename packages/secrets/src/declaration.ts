/** Where a secret's value may come from, tried in the order of `sources`. */
export type SecretSource = 'env' | 'arg' | 'prompt';

/** Every valid {@link SecretSource}, in the default resolution order. */
export const SECRET_SOURCES: readonly SecretSource[] = Object.freeze(['env', 'arg', 'prompt']);

/** One declared secret, with every default applied (see `validateSecretsConfig`). */
export interface SecretDeclaration {
  /** Environment variable name the value is published under; also the `{{name}}` token. */
  name: string;
  /** Shown in the interactive prompt and in error messages. Empty when not declared. */
  description: string;
  /**
   * When true and no source nor the default yields a value, start-up fails.
   * @default false
   */
  required: boolean;
  /**
   * When true the prompt is silent and the value never appears in the audit log.
   * @default false
   */
  sensitive: boolean;
  /**
   * Fallback value when no source yields one.
   * @default ""
   */
  default: string;
  /**
   * Resolution order; the first non-empty value wins.
   * @default ["env", "arg", "prompt"]
   */
  sources: SecretSource[];
}
