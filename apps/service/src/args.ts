/**
 * Command-line parsing on node:util parseArgs: strict (an unknown flag is a usage
 * error, exit 2), with a help text per command.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ServiceError } from './errors.js';

/** Options table of one command, in node:util parseArgs' shape. */
export type OptionsSpec = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseCommandArgs} returns. */
export interface ParsedArgs {
  readonly values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  readonly positionals: string[];
}

/**
 * Parses one command's arguments strictly.
 * @throws ServiceError `ERR_SERVICE_USAGE` for an unknown flag, a missing flag value or
 * a wrong number of positionals.
 */
export function parseCommandArgs(
  command: string,
  argv: readonly string[],
  options: OptionsSpec,
  positionals: { readonly min: number; readonly max: number },
): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' }, ...options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ServiceError('ERR_SERVICE_USAGE', `browsertask ${command}: ${message}`, {
      cause: err,
    });
  }
  if (parsed.values.help === true) return parsed;
  const count = parsed.positionals.length;
  if (count < positionals.min || count > positionals.max) {
    const expected =
      positionals.min === positionals.max
        ? `${positionals.min}`
        : `${positionals.min} to ${positionals.max}`;
    throw new ServiceError(
      'ERR_SERVICE_USAGE',
      `browsertask ${command}: expected ${expected} argument(s), got ${count}`,
    );
  }
  return parsed;
}

/** Reads a string flag (the last one when repeated). */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  if (Array.isArray(value)) {
    const last = value.at(-1);
    return typeof last === 'string' ? last : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/** Reads a repeatable string flag. */
export function stringListFlag(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is string => typeof v === 'string');
}

/** A `--NAME=value` flag whose name looks like an environment variable (secret flags). */
const SECRET_FLAG = /^--([A-Z_][A-Z0-9_]*)=(.*)$/s;

/**
 * Splits `--NAME=value` secret flags (upper-case names) from the other arguments.
 * The secret values are handed to the secrets resolver as its `arg` source.
 */
export function splitSecretFlags(argv: readonly string[]): {
  readonly rest: string[];
  readonly secretArgs: Record<string, string>;
} {
  const rest: string[] = [];
  const secretArgs: Record<string, string> = {};
  for (const arg of argv) {
    const match = SECRET_FLAG.exec(arg);
    if (match?.[1] !== undefined && match[2] !== undefined) secretArgs[match[1]] = match[2];
    else rest.push(arg);
  }
  return { rest, secretArgs };
}
