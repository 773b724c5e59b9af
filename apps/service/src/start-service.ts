/**
 * The composition root of `browsertask serve`: open the bundle, load and validate the
 * config files, resolve secrets, start the pools (every window ready), then listen.
 * Any failure on the way closes what was started (no browser survives) and throws.
 */
import { dirname } from 'node:path';
import { openBundle, type Bundle } from '@browsertask/bundle-fs';
import { loadTask } from '@browsertask/recipe-parser';
import * as recorder from '@browsertask/recorder';
import { Runner, createTaskRegistry } from '@browsertask/runner';
import {
  createRedactor,
  formatAudit,
  publishSecrets,
  resolveSecrets,
  type PromptFn,
} from '@browsertask/secrets';
import { createServer, type BrowsertaskServer } from '@browsertask/server';
import { WindowPools, detectBrowser } from '@browsertask/window-pool';
import type { pino } from 'pino';
import { loadBundleConfig } from './config-files.js';
import { isLoopbackHost, type ServiceConfig } from './config.js';
import { formatProblem } from './diagnostics.js';
import { ServiceError, errorCode, errorMessage } from './errors.js';
import { publishedEnv } from './published-env.js';

/** Options of {@link startService}. */
export interface StartServiceOptions {
  readonly config: ServiceConfig;
  /** The process environment (read, and copied into the runner's template env). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--NAME=value` secret flags. */
  readonly secretArgs: Readonly<Record<string, string>>;
  /** Whether a terminal is attached (the secrets `prompt` source). */
  readonly isTTY: boolean;
  readonly prompt?: PromptFn;
  readonly logger: pino.Logger;
  /** Installs the redactor on the logger once secrets are known. */
  readonly setRedact: (redact: (text: string) => string) => void;
  /** Don't listen: compose everything but the HTTP server (`browsertask run`). */
  readonly listen?: boolean;
}

/** A started service. */
export interface RunningService {
  /** `http://host:port` (when listening). */
  readonly url: string;
  readonly runner: Runner;
  readonly pools: WindowPools;
  readonly bundle: Bundle;
  /** The template environment of runs (process env + secrets + SERVICE_BASE_URL …). */
  readonly runEnv: Record<string, string | undefined>;
  /** Redacts sensitive secret values from any text. */
  redact(text: string): string;
  /**
   * Graceful stop: stop accepting, let running runs finish (bounded by
   * `shutdownTimeoutMs`), close the pools and the bundle. Idempotent.
   */
  close(): Promise<void>;
}

/** Waits for `promise` at most `ms`; resolves either way. */
async function bounded(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Starts the service. Resolves once the HTTP server listens (every pool window ready).
 * @throws ServiceError `ERR_SERVICE_BUNDLE`, `ERR_SERVICE_CONFIG_FILE`, `ERR_SERVICE_SECRETS`,
 * `ERR_SERVICE_BROWSER`, `ERR_SERVICE_LISTEN`; nothing is left running then.
 * @example const service = await startService({ config, env: process.env, secretArgs: {}, isTTY: false, logger, setRedact });
 */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const { config, logger } = options;
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async (): Promise<void> => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  };
  try {
    return await compose(options, cleanups);
  } catch (err) {
    logger.debug({ err }, 'start-up failed; closing what was started');
    await cleanup();
    throw err;
  }

  async function compose(
    opts: StartServiceOptions,
    onFail: (() => Promise<void>)[],
  ): Promise<RunningService> {
    // 1. The bundle.
    let bundle: Bundle;
    try {
      bundle = await openBundle(config.bundlePath);
    } catch (err) {
      throw new ServiceError('ERR_SERVICE_BUNDLE', `cannot open bundle: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    onFail.push(() => bundle.close());
    logger.info(
      { path: bundle.path, kind: bundle.kind },
      bundle.kind === 'zip' ? 'opened zip bundle' : 'opened directory bundle',
    );

    // 2. Config files (read once at start-up).
    const runEnv: Record<string, string | undefined> = {
      ...opts.env,
      ...publishedEnv(config, config.port),
    };
    const loaded = await loadBundleConfig(bundle, {
      env: runEnv,
      baseDir: bundle.kind === 'zip' ? dirname(bundle.path) : bundle.path,
    });
    for (const p of loaded.problems.filter((x) => x.severity === 'warning')) {
      logger.warn({ problem: formatProblem(p) }, 'config file warning');
    }
    const errors = loaded.problems.filter((x) => x.severity === 'error');
    if (errors.length > 0) {
      throw new ServiceError(
        'ERR_SERVICE_CONFIG_FILE',
        `invalid config file(s):\n${errors.map((p) => `  ${formatProblem(p)}`).join('\n')}`,
      );
    }
    const files = loaded.config;

    // 3. Secrets: resolve, publish into the run environment, redact from logs.
    const decls = files.secrets ?? [];
    const declared = new Set(decls.map((d) => d.name));
    const unknownFlags = Object.keys(opts.secretArgs).filter((n) => !declared.has(n));
    if (unknownFlags.length > 0) {
      throw new ServiceError(
        'ERR_SERVICE_USAGE',
        `unknown flag(s) ${unknownFlags.map((n) => `--${n}`).join(', ')}: not a secret declared in the bundle's secrets file`,
      );
    }
    let redact = (text: string): string => text;
    // Responses and events get the same treatment as logs: a sensitive value never leaves.
    let redactDeep = <T>(value: T): T => value;
    if (decls.length > 0) {
      let resolved;
      try {
        resolved = await resolveSecrets(decls, {
          env: opts.env,
          argv: Object.entries(opts.secretArgs).map(([k, v]) => `--${k}=${v}`),
          isTTY: opts.isTTY,
          ...(opts.prompt ? { prompt: opts.prompt } : {}),
          logger,
        });
      } catch (err) {
        throw new ServiceError('ERR_SERVICE_SECRETS', errorMessage(err), { cause: err });
      }
      const redactor = createRedactor(resolved.sensitiveValues);
      redact = (text) => redactor.redactSerialized(text);
      redactDeep = (value) => redactor.redactDeep(value);
      opts.setRedact(redact);
      publishSecrets(resolved.values, runEnv);
      for (const entry of resolved.audit)
        logger.info({ secret: entry.name, source: entry.source }, formatAudit(entry));
    }

    // 4. Pools: every window pre-allocated before we listen.
    const executablePath = config.browserPath ?? detectBrowser(opts.env);
    if (executablePath === undefined && config.cdpUrl === undefined) {
      throw new ServiceError(
        'ERR_SERVICE_BROWSER',
        'no Chromium found: set SERVICE_BROWSER to its path, or install chromium (npm start installs one)',
      );
    }
    const pools = new WindowPools({
      pools: files.pool?.pools ?? { default: { size: 1 } },
      ...(executablePath !== undefined ? { executablePath } : {}),
      headless: config.headless,
      ...(config.cdpUrl !== undefined ? { cdpUrl: config.cdpUrl } : {}),
      downloadsDir: config.downloadsDir,
      profileDir: config.profileDir,
      acquireTimeoutMs: config.acquireTimeoutMs,
      logger,
    });
    onFail.push(() => pools.close());
    try {
      await pools.start();
    } catch (err) {
      throw new ServiceError('ERR_SERVICE_BROWSER', `browser start failed: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    logger.info({ pools: pools.stats() }, 'pools ready');

    // 5. Tasks and runs.
    const registry = createTaskRegistry(bundle, {
      loadTask,
      defaultTimeoutMs: config.taskTimeoutMs,
      logger,
    });
    for (const p of await registry.problems()) {
      logger.warn({ problem: `${p.file}:${p.line}:${p.col}: ${p.message}` }, 'task not loaded');
    }
    logger.info({ taskCount: await registry.count() }, 'tasks loaded');
    const mounts = files.mounts ?? [];
    const runner = new Runner({
      registry,
      pools,
      bundle,
      downloadsRoot: config.downloadsDir,
      recordingsDir: config.recordingsDir,
      extraRoots: mounts.map((m) => m.dir),
      defaultTimeoutMs: config.taskTimeoutMs,
      env: runEnv,
      recorder,
      logger,
    });

    let url = '';
    let server: BrowsertaskServer | undefined;
    const inflight = new Set<Promise<unknown>>();
    if (opts.listen !== false) {
      server = createServer({
        catalogue: { list: () => registry.list(), count: () => registry.count() },
        runTask: async (name, input, ctx) => {
          const run = runner.run(name, input, {
            signal: ctx.signal,
            publisher: { publish: (e) => ctx.publish(redactDeep(e)) },
            runId: ctx.requestId,
          });
          inflight.add(run);
          try {
            const outcome = await run;
            if (!outcome.ok) throw outcome.cause;
            return redactDeep(outcome.data);
          } finally {
            inflight.delete(run);
          }
        },
        health: () => pools.stats(),
        mounts,
        ...(config.token !== undefined ? { token: config.token } : {}),
        maxBodyBytes: config.maxBodyBytes,
        heartbeatMs: config.heartbeatMs,
        logger,
        redact,
      });
      const srv = server;
      onFail.push(() => srv.close({ graceMs: 0 }));
      let port: number;
      try {
        port = (await srv.listen(config.port, config.host)).port;
      } catch (err) {
        throw new ServiceError(
          'ERR_SERVICE_LISTEN',
          `cannot listen on ${config.host}:${config.port}: ${errorMessage(err)}`,
          { cause: err },
        );
      }
      Object.assign(runEnv, publishedEnv(config, port));
      url = runEnv.SERVICE_BASE_URL ?? '';
      if (!isLoopbackHost(config.host) && config.token === undefined) {
        logger.warn(
          { host: config.host },
          'SECURITY WARNING: listening on a non-loopback address without SERVICE_TOKEN: anyone who can reach this port can run tasks',
        );
      }
      logger.info({ url, host: config.host, port }, 'listening');
    }

    let closing: Promise<void> | undefined;
    return {
      url,
      runner,
      pools,
      bundle,
      runEnv,
      redact,
      close() {
        closing ??= (async () => {
          logger.info({ running: inflight.size }, 'shutting down');
          // Stop accepting; open requests (running runs) get shutdownTimeoutMs to finish,
          // then their connections are cut, which aborts their runs.
          await server?.close({ graceMs: config.shutdownTimeoutMs });
          await bounded(Promise.all([...inflight]), config.shutdownTimeoutMs);
          await pools.close();
          await bundle.close();
          logger.info({}, 'stopped');
        })();
        return closing;
      },
    };
  }
}

/** Exit-worthy description of a start-up error (its code decides the exit status). */
export function describeStartError(err: unknown): { message: string; usage: boolean } {
  return { message: errorMessage(err), usage: errorCode(err) === 'ERR_SERVICE_USAGE' };
}
