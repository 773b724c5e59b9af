import { homedir } from 'node:os';
import { readServiceConfig } from '../config.js';
import { errorCode, errorMessage } from '../errors.js';
import { createServiceLogger, type Logger } from '../logger.js';
import { startService, type RunningService } from '../start-service.js';

/** A started service and its logger, or the exit code start-up failed with. */
export type BootResult =
  | { readonly ok: true; readonly service: RunningService; readonly logger: Logger }
  | { readonly ok: false; readonly exitCode: number };

/**
 * The start-up shared by `serve` and `run`: config from `env`, the logger, then the
 * service. A failure is one line on stderr (`browsertask <command>: <message>`) and exit
 * code 2 for a usage error, else 1; `logFailure` also logs it as a JSON line.
 */
export async function bootService(
  command: string,
  env: NodeJS.ProcessEnv,
  options: { secretArgs: Record<string, string>; isTTY: boolean; logFailure: boolean },
): Promise<BootResult> {
  const { config, warnings } = readServiceConfig(env, {
    cwd: process.cwd(),
    homeDir: homedir(),
    platform: process.platform,
  });
  const { logger, setRedact } = createServiceLogger({ level: config.logLevel });
  for (const w of warnings) logger.warn({}, w);
  try {
    const service = await startService({
      config,
      env: process.env,
      secretArgs: options.secretArgs,
      isTTY: options.isTTY,
      logger,
      setRedact,
    });
    return { ok: true, service, logger };
  } catch (err) {
    if (options.logFailure) {
      logger.error({ code: errorCode(err) }, `start-up failed: ${errorMessage(err)}`);
    }
    process.stderr.write(`browsertask ${command}: ${errorMessage(err)}\n`);
    return { ok: false, exitCode: errorCode(err) === 'ERR_SERVICE_USAGE' ? 2 : 1 };
  }
}
