import { bareFlags, secretFlags } from './argv.js';
import type { AuditEntry, AuditSource } from './audit.js';
import type { SecretDeclaration } from './declaration.js';
import { SecretsError } from './errors.js';
import { noopLogger, type Logger } from './logger.js';
import { createEnquirerPrompt, type PromptFn, type SecretQuestion } from './prompt.js';

/** Inputs of {@link resolveSecrets}; the caller (the service) passes its process state in. */
export interface ResolveSecretsOptions {
  /** Environment to read the `env` source from (the service passes `process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Launcher arguments to read `--NAME=value` flags from (e.g. `process.argv.slice(2)`). */
  argv: readonly string[];
  /** Whether an interactive terminal is available; when false the `prompt` source is skipped. */
  isTTY: boolean;
  /**
   * Asks for one secret interactively.
   * @default enquirer's `input` / `invisible` prompt on `stdin` / `stdout`
   */
  prompt?: PromptFn;
  /** Terminal input for the default prompt (enquirer falls back to the process's). */
  stdin?: NodeJS.ReadStream;
  /** Terminal output for the default prompt (enquirer falls back to the process's). */
  stdout?: NodeJS.WriteStream;
  /** Aborts a pending prompt; resolution then fails with `ERR_SECRETS_ABORTED`. */
  signal?: AbortSignal;
  /** Debug lines (`secret resolved`, name and source only, never a value). */
  logger?: Logger;
}

/** Outcome of {@link resolveSecrets}. */
export interface ResolveSecretsResult {
  /** Resolved values by name; unresolved optional secrets are absent. */
  values: Record<string, string>;
  /** One entry per declared secret, in declaration order. */
  audit: AuditEntry[];
  /** Values of resolved `sensitive` secrets: feed them to `createRedactor`. */
  sensitiveValues: string[];
}

interface Found {
  source: AuditSource;
  value: string;
}

function nonInteractive(
  decl: SecretDeclaration,
  env: ResolveSecretsOptions['env'],
  flags: Map<string, string>,
): Found | undefined {
  for (const source of decl.sources) {
    const value = source === 'env' ? env[decl.name] : source === 'arg' ? flags.get(decl.name) : '';
    if (value !== undefined && value !== '') return { source, value };
  }
  return undefined;
}

function questionFor(decl: SecretDeclaration): SecretQuestion {
  return {
    name: decl.name,
    description: decl.description,
    sensitive: decl.sensitive,
    message: decl.description ? `${decl.description} (${decl.name})` : decl.name,
  };
}

function howToSupply(decl: SecretDeclaration, isTTY: boolean, bare: Set<string>): string {
  const ways: string[] = [];
  for (const source of decl.sources) {
    if (source === 'env') ways.push(`set the environment variable ${decl.name}`);
    else if (source === 'arg') {
      const hint = bare.has(decl.name) ? ` (--${decl.name} was given without "=<value>")` : '';
      ways.push(`pass --${decl.name}=<value>${hint}`);
    } else
      ways.push(
        isTTY
          ? 'answer the terminal prompt (an empty answer does not count)'
          : 'start the server from an interactive terminal to be prompted (no terminal was available)',
      );
  }
  const label = decl.description ? `${decl.name} (${decl.description})` : decl.name;
  if (ways.length === 0)
    return `  ${label}: it declares no sources; add sources or a default to its declaration`;
  const last = ways.pop()!;
  return `  ${label}: ${ways.length > 0 ? `${ways.join(', ')} or ${last}` : last}`;
}

function requiredError(
  missing: SecretDeclaration[],
  isTTY: boolean,
  argv: readonly string[],
): SecretsError {
  const bare = bareFlags(argv);
  const names = missing.map((d) => d.name);
  const lines = [
    `required secret(s) not found: ${names.join(', ')}`,
    ...missing.map((d) => howToSupply(d, isTTY, bare)),
  ];
  return new SecretsError('ERR_SECRETS_REQUIRED', lines.join('\n'), { names });
}

async function ask(
  prompt: PromptFn,
  decl: SecretDeclaration,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (signal?.aborted) throw abortedError(signal);
  try {
    return await prompt(questionFor(decl), signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw abortedError(signal);
    if (err instanceof SecretsError) throw err;
    throw new SecretsError(
      'ERR_SECRETS_PROMPT_FAILED',
      `could not prompt for secret ${decl.name}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err, names: [decl.name] },
    );
  }
}

function abortedError(signal: AbortSignal): SecretsError {
  return new SecretsError('ERR_SECRETS_ABORTED', 'secret resolution was aborted', {
    cause: signal.reason,
  });
}

/**
 * Resolve every declared secret: for each, try its `sources` in order (`env`: `env[NAME]`;
 * `arg`: a `--NAME=value` flag in `argv`, last one wins, `--` ends flags; `prompt`: an
 * interactive prompt, silent when `sensitive`, skipped when `!isTTY`), the first non-empty
 * value wins; then the non-empty `default`. Required secrets that nothing can resolve are
 * reported together before any prompt is shown.
 *
 * @throws SecretsError `ERR_SECRETS_REQUIRED` naming every missing required secret and how to
 *   supply each; `ERR_SECRETS_PROMPT_CANCELLED`, `ERR_SECRETS_PROMPT_FAILED`, `ERR_SECRETS_ABORTED`.
 * @example
 * const { values, audit, sensitiveValues } = await resolveSecrets(decls, {
 *   env: process.env, argv: process.argv.slice(2), isTTY: process.stdin.isTTY === true,
 * });
 */
export async function resolveSecrets(
  decls: readonly SecretDeclaration[],
  options: ResolveSecretsOptions,
): Promise<ResolveSecretsResult> {
  const { env, argv, isTTY, signal } = options;
  const logger = options.logger ?? noopLogger;
  const flags = secretFlags(argv);
  const canPrompt = (d: SecretDeclaration): boolean => isTTY && d.sources.includes('prompt');

  // Fail before prompting for anything when some required secret cannot be resolved at all:
  // asking the user for A and then failing on B wastes their time.
  const doomed = decls.filter(
    (d) => d.required && d.default === '' && !canPrompt(d) && !nonInteractive(d, env, flags),
  );
  if (doomed.length > 0) throw requiredError(doomed, isTTY, argv);

  let prompt = options.prompt;
  const values: Record<string, string> = {};
  const audit: AuditEntry[] = [];
  const sensitiveValues: string[] = [];
  const missing: SecretDeclaration[] = [];

  for (const decl of decls) {
    let found: Found | undefined;
    for (const source of decl.sources) {
      let value: string | undefined;
      if (source === 'env') value = env[decl.name];
      else if (source === 'arg') value = flags.get(decl.name);
      else if (isTTY) {
        prompt ??= createEnquirerPrompt({
          ...(options.stdin ? { stdin: options.stdin } : {}),
          ...(options.stdout ? { stdout: options.stdout } : {}),
        });
        value = await ask(prompt, decl, signal);
      }
      if (value !== undefined && value !== '') {
        found = { source, value };
        break;
      }
    }
    if (!found && decl.default !== '') found = { source: 'default', value: decl.default };

    if (found) {
      values[decl.name] = found.value;
      if (decl.sensitive) sensitiveValues.push(found.value);
      audit.push(
        decl.sensitive
          ? { name: decl.name, source: found.source, sensitive: true }
          : { name: decl.name, source: found.source, sensitive: false, value: found.value },
      );
      logger.debug({ secret: decl.name, source: found.source }, 'secret resolved');
    } else {
      audit.push({ name: decl.name, source: 'unresolved', sensitive: decl.sensitive });
      if (decl.required) missing.push(decl);
      logger.debug({ secret: decl.name, required: decl.required }, 'secret unresolved');
    }
  }
  if (missing.length > 0) throw requiredError(missing, isTTY, argv);
  return { values, audit, sensitiveValues };
}
