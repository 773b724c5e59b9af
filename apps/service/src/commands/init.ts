import { resolve } from 'node:path';
import { parseCommandArgs } from '../args.js';
import { writeStarterBundle } from '../init-bundle.js';
import type { Command } from './command.js';

const HELP = `Usage: browsertask init [dir]

Writes a starter bundle into [dir] (default: the current directory): a task, a JS
module, pool.yaml, static-mounts.yaml, secrets.yaml and a one-page site the task
automates offline. Refuses to overwrite any existing file.

Then: browsertask check <dir>   and   SERVICE_BUNDLE=<dir> browsertask serve
`;

/** `browsertask init [dir]`. */
export const initCommand: Command = {
  name: 'init',
  summary: 'scaffold a starter bundle',
  async run(argv) {
    const args = parseCommandArgs('init', argv, {}, { min: 0, max: 1 });
    if (args.values.help === true) {
      process.stdout.write(HELP);
      return 0;
    }
    const dir = args.positionals[0] ?? '.';
    const written = await writeStarterBundle(resolve(dir));
    for (const p of written) process.stderr.write(`created ${dir}/${p}\n`);
    process.stderr.write(
      `\nnext: browsertask check ${dir}\n      SERVICE_BUNDLE=${dir} browsertask serve\n      curl -s -X POST http://127.0.0.1:8765/tasks/hello\n`,
    );
    return 0;
  },
};
