import Enquirer from 'enquirer';
import { SecretsError } from './errors.js';

/** What the interactive prompt is asked for one secret. */
export interface SecretQuestion {
  /** The secret's name (environment variable name). */
  name: string;
  /** The declared description, or `""`. */
  description: string;
  /** When true the answer must be read without echo. */
  sensitive: boolean;
  /** Text to show: the description followed by the name, e.g. `Shop password (SHOP_PASSWORD)`. */
  message: string;
}

/** Options passed to a {@link PromptFn}. */
export interface PromptCallOptions {
  /** Aborts the prompt (the promise must then reject). */
  signal?: AbortSignal;
}

/**
 * Asks the user for one secret and resolves with the typed answer (`""` = no answer).
 * Rejects with a `SecretsError` (`ERR_SECRETS_PROMPT_CANCELLED`) when the user cancels;
 * any other rejection becomes `ERR_SECRETS_PROMPT_FAILED`.
 */
export type PromptFn = (question: SecretQuestion, options: PromptCallOptions) => Promise<string>;

/** Streams for {@link createEnquirerPrompt}; enquirer falls back to the process streams. */
export interface EnquirerPromptOptions {
  /** Terminal input, normally the service's `process.stdin` (must be a TTY for raw mode). */
  stdin?: NodeJS.ReadStream;
  /** Terminal output, normally `process.stderr` or `process.stdout`. */
  stdout?: NodeJS.WriteStream;
}

interface CancellablePrompt {
  cancel(err?: unknown): Promise<void>;
}

/**
 * The default {@link PromptFn}: enquirer's `input` prompt, or its `invisible` prompt for
 * sensitive secrets (nothing at all is echoed, not even `*` per character, so the length
 * stays hidden too).
 *
 * @example
 * const prompt = createEnquirerPrompt({ stdin: process.stdin, stdout: process.stderr });
 */
export function createEnquirerPrompt(options: EnquirerPromptOptions = {}): PromptFn {
  return async (question, { signal } = {}) => {
    signal?.throwIfAborted();
    const enquirer = new Enquirer<Record<string, unknown>>();
    let active: CancellablePrompt | undefined;
    enquirer.on('prompt', (prompt: CancellablePrompt) => {
      active = prompt;
    });
    const onAbort = (): void => {
      void active?.cancel(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answers = await enquirer.prompt({
        type: question.sensitive ? 'invisible' : 'input',
        name: 'value',
        message: question.message,
        ...(options.stdin ? { stdin: options.stdin } : {}),
        ...(options.stdout ? { stdout: options.stdout } : {}),
      });
      const value = answers.value;
      // Input prompts always answer a string; anything else counts as no answer.
      return typeof value === 'string' ? value : '';
    } catch (err) {
      signal?.throwIfAborted();
      // enquirer rejects with '' (or undefined) on Ctrl-C / Esc.
      if (err === '' || err === undefined) {
        throw new SecretsError(
          'ERR_SECRETS_PROMPT_CANCELLED',
          `prompt for secret ${question.name} was cancelled`,
          { names: [question.name] },
        );
      }
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };
}
