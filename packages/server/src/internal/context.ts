import type Koa from 'koa';
import type { Logger } from '../logger.js';

/** Per-request state set by the request-context middleware. */
export interface AppState extends Koa.DefaultState {
  /** The request's X-Request-Id. */
  requestId: string;
}

/** What every route and middleware of this app receives. */
export type AppContext = Koa.ParameterizedContext<AppState>;

/** Shared settings the middleware and routes read. */
export interface AppSettings {
  readonly logger: Logger;
  readonly redact: (text: string) => string;
}

/** Writes the failure envelope with its status (and keeps already-set headers). */
export function sendFailure(ctx: AppContext, status: number, code: string, message: string): void {
  ctx.status = status;
  ctx.body = { ok: false, error: { code, message } };
}
