import { parseCommandArgs, splitSecretFlags, stringFlag } from '../args.js';
import { ENV_DEFAULTS } from '../config.js';
import { bootService } from './boot.js';
import type { Command } from './command.js';

const HELP = `Usage: browsertask serve [--host H] [--port P] [--bundle B] [--<SECRET>=value ...]

Serves the bundle's tasks over HTTP: POST /tasks/<slug> (JSON, or SSE with
Accept: text/event-stream), GET /tasks, GET /health and the bundle's static mounts.
Start-up: open the bundle, validate its config files, resolve secrets (environment,
--<SECRET>=value flags, then a prompt on a terminal), open every pool window, listen.
SIGINT/SIGTERM stop gracefully: running runs finish (SERVICE_SHUTDOWN_TIMEOUT_MS).

Options (override the environment):
  --host H       SERVICE_HOST
  --port P       SERVICE_PORT
  --bundle B     SERVICE_BUNDLE

Environment (default):
${Object.entries(ENV_DEFAULTS)
  .map(([k, v]) => `  ${k.padEnd(28)} ${v}`)
  .join('\n')}

Tasks reach the service itself through {{SERVICE_BASE_URL}}; {{SERVICE_DOWNLOADS_DIR}}
and {{SERVICE_RECORDINGS_DIR}} hold the absolute output directories.
`;

/** `browsertask serve`. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the bundle over HTTP (the service)',
  async run(argv) {
    const { rest, secretArgs } = splitSecretFlags(argv);
    const args = parseCommandArgs(
      'serve',
      rest,
      { host: { type: 'string' }, port: { type: 'string' }, bundle: { type: 'string' } },
      { min: 0, max: 0 },
    );
    if (args.values.help === true) {
      process.stdout.write(HELP);
      return 0;
    }
    const env = { ...process.env };
    const host = stringFlag(args, 'host');
    const port = stringFlag(args, 'port');
    const bundle = stringFlag(args, 'bundle');
    if (host !== undefined) env.SERVICE_HOST = host;
    if (port !== undefined) env.SERVICE_PORT = port;
    if (bundle !== undefined) env.SERVICE_BUNDLE = bundle;
    const boot = await bootService('serve', env, {
      secretArgs,
      isTTY: process.stdin.isTTY && process.stdout.isTTY,
      logFailure: true,
    });
    if (!boot.ok) return boot.exitCode;
    const { service, logger } = boot;

    // Graceful shutdown; a second signal forces the exit (pools still close).
    return new Promise<number>((resolve) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals): void => {
        if (stopping) {
          logger.warn({ signal }, 'second signal: closing the browsers now');
          void service.pools.close().then(() => resolve(1));
          return;
        }
        stopping = true;
        logger.info({ signal }, 'signal received');
        service.close().then(
          () => resolve(0),
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            resolve(1);
          },
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};
