import { homedir } from 'node:os';
import { parseCommandArgs } from '../args.js';
import { checkBundle } from '../check-bundle.js';
import { readServiceConfig } from '../config.js';
import { publishedEnv } from '../published-env.js';
import type { Command } from './command.js';

const HELP = `Usage: browsertask check [bundle]

Validates a bundle (a directory, or a .zip/.jar archive) without starting a browser:
every recipe and YAML TaskDef under tasks/, and the pool, static-mounts and secrets
config files. Prints every error and warning as file:line:col: message.
[bundle] defaults to SERVICE_BUNDLE (./bundle-example).

Exit code: 0 when there is no error (warnings allowed), 1 otherwise.
`;

/** `browsertask check [bundle]`. */
export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a bundle (directory or zip) without a browser',
  async run(argv) {
    const args = parseCommandArgs('check', argv, {}, { min: 0, max: 1 });
    if (args.values.help === true) {
      process.stdout.write(HELP);
      return 0;
    }
    const { config } = readServiceConfig(process.env, { cwd: process.cwd(), homeDir: homedir() });
    const path = args.positionals[0] ?? config.bundlePath;
    const env = { ...process.env, ...publishedEnv(config, config.port) };
    const result = await checkBundle(path, env);
    for (const e of result.errors) process.stderr.write(`${e}\n`);
    for (const w of result.warnings) process.stderr.write(`${w}\n`);
    const summary = `${path}: ${result.kind} bundle, ${result.taskCount} task(s), ${result.errors.length} error(s), ${result.warnings.length} warning(s)`;
    process.stdout.write(`${summary}\n`);
    return result.errors.length === 0 ? 0 : 1;
  },
};
