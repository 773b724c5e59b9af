import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Router } from '@koa/router';
import type { AppSettings, AppState } from './internal/context.js';
import { noopLogger, type Logger } from './logger.js';
import { bearerAuth } from './middleware/auth.js';
import { errorHandler } from './middleware/error-handler.js';
import { requestContext } from './middleware/request-context.js';
import { registerHealthRoute } from './routes/health.js';
import { registerMountRoutes } from './routes/mounts.js';
import { registerRunTaskRoute } from './routes/run-task.js';
import { registerTasksRoute } from './routes/tasks.js';
import type { StaticMount } from './static-mounts.js';
import type { HealthFn, RunTask, TaskCatalogue } from './types.js';

/** Default request-body limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link createApp} and {@link createServer}. */
export interface AppOptions {
  /** The live task registry (`GET /tasks`, `taskCount`). */
  readonly catalogue: TaskCatalogue;
  /** Runs one task (`POST /tasks/<name>`). */
  readonly runTask: RunTask;
  /** Pool window counts for `GET /health`. @default () => ({}) */
  readonly health?: HealthFn;
  /** Static mounts (see `validateStaticMounts`). @default [] */
  readonly mounts?: readonly StaticMount[];
  /** When set, every route but `GET /health` needs `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Larger request bodies get 413 `BODY_TOO_LARGE`. @default 1048576 */
  readonly maxBodyBytes?: number;
  /** Request log lines and failures. @default noopLogger */
  readonly logger?: Logger;
  /** Applied to every logged path and every error message sent to a caller. @default identity */
  readonly redact?: (text: string) => string;
  /** SSE `: ping` interval in ms. @default 15000 */
  readonly heartbeatMs?: number;
}

/** The Koa app type returned by {@link createApp}. */
export type BrowsertaskApp = Koa<AppState>;

/**
 * Builds the browsertask Koa app: error middleware first (codes → status + envelope),
 * X-Request-Id and request logs, optional bearer auth, then `GET /health`,
 * `GET /tasks`, `POST /tasks/<name...>` (JSON or SSE) and the declared static mounts.
 * Unknown routes answer 404 `NOT_FOUND`, wrong methods 405 `METHOD_NOT_ALLOWED`.
 *
 * @example
 * const app = createApp({ catalogue, runTask, health: () => pools.stats(), mounts });
 * app.listen(8765, '127.0.0.1');
 */
export function createApp(options: AppOptions): BrowsertaskApp {
  const settings: AppSettings = {
    logger: options.logger ?? noopLogger,
    redact: options.redact ?? ((text) => text),
  };
  const app = new Koa<AppState>();
  // Errors are logged by the error middleware through `logger`; Koa must not print them.
  app.silent = true;

  const router = new Router<AppState>();
  registerHealthRoute(router, {
    catalogue: options.catalogue,
    health: options.health ?? (() => ({})),
  });
  registerTasksRoute(router, { catalogue: options.catalogue });
  registerRunTaskRoute(router, {
    runTask: options.runTask,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    settings,
  });
  registerMountRoutes(router, options.mounts ?? []);

  app.use(requestContext(settings));
  app.use(errorHandler(settings));
  if (options.token !== undefined && options.token !== '') app.use(bearerAuth(options.token));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Where a {@link BrowsertaskServer} listens. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
  /** `http://<host>:<port>` */
  readonly url: string;
}

/** An HTTP server around {@link createApp} with promise-based listen/close. */
export interface BrowsertaskServer {
  readonly app: BrowsertaskApp;
  readonly server: Server;
  /** Listens on `host:port` (port `0` picks a free one). @default port 8765, host 127.0.0.1 */
  listen(port?: number, host?: string): Promise<ListenAddress>;
  /**
   * Stops accepting, closes idle connections, and after `graceMs` cuts the rest (open SSE
   * streams see a disconnect, which aborts their runs). Idempotent.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * {@link createApp} plus a `node:http` server.
 * @example
 * const srv = createServer({ catalogue, runTask });
 * const { url } = await srv.listen(0, '127.0.0.1');
 * await srv.close();
 */
export function createServer(options: AppOptions): BrowsertaskServer {
  const app = createApp(options);
  const handle = app.callback();
  const server = createHttpServer((req, res) => {
    void handle(req, res);
  });
  let closing: Promise<void> | undefined;
  const close = (opts: { graceMs?: number } = {}): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      const timer = setTimeout(() => server.closeAllConnections(), opts.graceMs ?? 5000);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  return {
    app,
    server,
    listen: (port = 8765, host = '127.0.0.1') =>
      new Promise<ListenAddress>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const addr = server.address() as AddressInfo;
          const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
          resolve({ host: addr.address, port: addr.port, url: `http://${h}:${addr.port}` });
        });
      }),
    close,
    [Symbol.asyncDispose]: () => close(),
  };
}
