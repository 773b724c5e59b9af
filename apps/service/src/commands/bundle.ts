import { resolve } from 'node:path';
import { parseCommandArgs } from '../args.js';
import { createBundleZip } from '../bundle-zip.js';
import type { Command } from './command.js';

const HELP = `Usage: browsertask bundle <recipes_dir> <output_zip>

Validates every recipe and config file of <recipes_dir> (a bundle directory, or a
folder of recipes), transpiles .task/.webtask recipes to YAML TaskDefs and writes a
portable zip of tasks, scripts and config files. The same input always gives a
byte-identical zip. Any error is printed as file:line:col: message; then the exit
code is 1 and no zip is written.
`;

/** `browsertask bundle <recipes_dir> <output_zip>`. */
export const bundleCommand: Command = {
  name: 'bundle',
  summary: 'validate recipes and zip them into a portable bundle',
  async run(argv) {
    const args = parseCommandArgs('bundle', argv, {}, { min: 2, max: 2 });
    if (args.values.help === true) {
      process.stdout.write(HELP);
      return 0;
    }
    const [source, output] = args.positionals as [string, string];
    const result = await createBundleZip(source, resolve(output), { env: process.env });
    for (const w of result.warnings) process.stderr.write(`${w}\n`);
    if (!result.ok) {
      for (const e of result.errors) process.stderr.write(`${e}\n`);
      process.stderr.write(
        `browsertask bundle: ${result.errors.length} error(s); no zip written\n`,
      );
      return 1;
    }
    process.stderr.write(`wrote ${output} (${result.entries.length} files)\n`);
    return 0;
  },
};
