/**
 * Errors of the recipe parser. Functions that can find many problems return them as
 * diagnostics; the APIs that throw wrap them in one {@link RecipeError}.
 */
import type { Diagnostic } from './diagnostics.js';

/**
 * Stable error codes: `ERR_RECIPE_SYNTAX` (the text cannot be read: tokens, blocks,
 * YAML syntax) and `ERR_RECIPE_INVALID` (readable but wrong: unknown action or
 * parameter, missing required parameter, bad type, schema violation).
 */
export type RecipeErrorCode = 'ERR_RECIPE_SYNTAX' | 'ERR_RECIPE_INVALID';

/** Thrown by the throwing APIs ({@link loadTaskOrThrow}); carries every diagnostic. */
export class RecipeError extends Error {
  /** Stable code to branch on. */
  readonly code: RecipeErrorCode;
  /** Every error and warning found, sorted by position. */
  readonly diagnostics: readonly Diagnostic[];

  /**
   * @param code - `ERR_RECIPE_SYNTAX` or `ERR_RECIPE_INVALID`.
   * @param message - Usually every error as `file:line:col: message`, one per line.
   * @param diagnostics - The diagnostics behind the error.
   */
  constructor(
    code: RecipeErrorCode,
    message: string,
    diagnostics: readonly Diagnostic[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RecipeError';
    this.code = code;
    this.diagnostics = diagnostics;
  }
}
