import { commands, type Command } from './commands/index.js';
import { errorCode, errorMessage } from './errors.js';

/** Exit codes: 0 success, 1 the command failed, 2 usage error (unknown command or flag). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: browsertask <command> [options]',
    '',
    'Turns browser-automation recipes into HTTP endpoints.',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `browsertask <command> --help` for the options of one command.',
  ].join('\n');
}

/**
 * Runs the CLI with the given arguments (without `node` and the script path) and
 * resolves to the process exit code.
 * @example process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command: Command | undefined = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`browsertask: unknown command "${name}"\n\n${usage()}\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    // Every failure ends as one clear line; usage errors also point at --help.
    if (errorCode(err) === 'ERR_SERVICE_USAGE') {
      process.stderr.write(`${errorMessage(err)}\nRun \`browsertask ${name} --help\` for usage.\n`);
      return EXIT.usage;
    }
    process.stderr.write(`browsertask ${name}: ${errorMessage(err)}\n`);
    return EXIT.failed;
  }
}
