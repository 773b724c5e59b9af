import type { RunEvent, TerminalEvent } from '@browsertask/runner';
import { parseCommandArgs, splitSecretFlags, stringFlag, stringListFlag } from '../args.js';
import { ServiceError, errorMessage } from '../errors.js';
import { bootService } from './boot.js';
import type { Command } from './command.js';

const HELP = `Usage: browsertask run <slug> [--bundle B] [--input name=value ...] [--json '{...}'] [--<SECRET>=value ...]

Runs one task once, without the HTTP API: events (status, progress, recording, …)
are printed on stderr as they happen, the response envelope on stdout:
  {"ok":true,"data":...}   or   {"ok":false,"error":{"code":...,"message":...}}
Exit code 0 when the run succeeded, 1 when it failed.

The bundle's static mounts are served on an ephemeral 127.0.0.1 port for the
duration of the run, so {{SERVICE_BASE_URL}} works as under \`serve\`.

Options:
  --bundle B          bundle directory or zip (default SERVICE_BUNDLE, ./bundle-example)
  --input name=value  one input (repeatable; values are coerced to the declared type)
  --json '{...}'      inputs as a JSON object (--input values override its keys)
`;

function parseInputs(json: string | undefined, pairs: readonly string[]): Record<string, unknown> {
  let input: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new ServiceError('ERR_SERVICE_USAGE', `--json is not valid JSON: ${errorMessage(err)}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ServiceError('ERR_SERVICE_USAGE', '--json must be a JSON object');
    }
    input = { ...(parsed as Record<string, unknown>) };
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new ServiceError('ERR_SERVICE_USAGE', `--input ${pair}: expected name=value`);
    }
    input[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return input;
}

/** `browsertask run <slug>`. */
export const runCommand: Command = {
  name: 'run',
  summary: 'run one task once without the HTTP API (envelope on stdout)',
  async run(argv) {
    const { rest, secretArgs } = splitSecretFlags(argv);
    const args = parseCommandArgs(
      'run',
      rest,
      {
        bundle: { type: 'string' },
        input: { type: 'string', multiple: true },
        json: { type: 'string' },
      },
      { min: 1, max: 1 },
    );
    if (args.values.help === true) {
      process.stdout.write(HELP);
      return 0;
    }
    const slug = args.positionals[0]!;
    const input = parseInputs(stringFlag(args, 'json'), stringListFlag(args, 'input'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICE_HOST: '127.0.0.1',
      SERVICE_PORT: '0',
      SERVICE_LOG_LEVEL: process.env.SERVICE_LOG_LEVEL ?? 'warn',
    };
    const bundle = stringFlag(args, 'bundle');
    if (bundle !== undefined) env.SERVICE_BUNDLE = bundle;
    const boot = await bootService('run', env, {
      secretArgs,
      isTTY: process.stdin.isTTY && process.stderr.isTTY,
      logFailure: false,
    });
    if (!boot.ok) return boot.exitCode;
    const { service } = boot;
    const controller = new AbortController();
    const onSignal = (): void => controller.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const print = (kind: string, payload: unknown): void => {
      process.stderr.write(`${service.redact(`event: ${kind} ${JSON.stringify(payload)}`)}\n`);
    };
    try {
      const outcome = await service.runner.run(slug, input, {
        signal: controller.signal,
        publisher: {
          publish: (e: RunEvent) => print(e.kind, { text: e.text, data: e.data ?? null }),
          end: (e: TerminalEvent) => print(e.kind, e.payload),
        },
      });
      const envelope = outcome.ok
        ? { ok: true, data: outcome.data }
        : { ok: false, error: { code: 'EXECUTION_FAILED', message: outcome.error.message } };
      process.stdout.write(`${service.redact(JSON.stringify(envelope))}\n`);
      return outcome.ok ? 0 : 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await service.close();
    }
  },
};
