import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));
/** The repository root (commands run there, as `pnpm exec browsertask` does). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Chromium flags every test browser uses (platform-notes.md). */
export const BROWSER = process.env.SERVICE_BROWSER ?? '/usr/bin/chromium';

/** Env for a CLI child: headless, quiet, the system Chromium, plus `extra`. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SERVICE_HEADLESS: 'true',
    SERVICE_BROWSER: BROWSER,
    SERVICE_LOG_LEVEL: 'info',
    ...extra,
  };
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  return env;
}

function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Result of one finished CLI run. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `browsertask <args>` to completion. */
export async function runCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  const child = spawnCli(args, cliEnv(options.env), options.cwd ?? repoRoot);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** A running `browsertask serve`. */
export interface Served {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** Everything written to stderr so far (pino JSON lines). */
  stderr(): string;
  /** SIGTERM, then wait for exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `browsertask serve` on a free port and waits for its "listening" log line. */
export async function serve(
  env: Record<string, string | undefined>,
  args: readonly string[] = [],
): Promise<Served> {
  const child = spawnCli(['serve', ...args], cliEnv({ SERVICE_PORT: '0', ...env }), repoRoot);
  let err = '';
  child.stdout!.resume();
  const ready = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening"/.exec(err);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}:\n${err}`)));
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    const baseUrl = await ready;
    return {
      baseUrl,
      child,
      stderr: () => err,
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
        child.kill('SIGTERM');
        const [code] = (await once(child, 'close')) as [number | null];
        return code;
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Parsed pino lines of a stderr capture. */
export function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
