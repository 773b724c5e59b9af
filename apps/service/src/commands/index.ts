import { bundleCommand } from './bundle.js';
import { checkCommand } from './check.js';
import type { Command } from './command.js';
import { initCommand } from './init.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';

export type { Command } from './command.js';

/** Every command the CLI knows, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  serveCommand,
  runCommand,
  checkCommand,
  bundleCommand,
  initCommand,
];
