import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppSettings, AppState } from '../internal/context.js';

/** An incoming X-Request-Id is echoed only when short and plain (no header/log injection). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Sets `X-Request-Id` (echoes a sane incoming one, else a new UUID) and logs one line per
 * request when the response is finished or the connection closes — so streamed files
 * and SSE responses (which bypass Koa's body handling) are logged too.
 */
export function requestContext(settings: AppSettings): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const { method } = ctx;
    const path = ctx.path;
    const res = ctx.res;
    let logged = false;
    const log = (): void => {
      if (logged) return;
      logged = true;
      const line = {
        reqId: requestId,
        method,
        path: settings.redact(path),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        aborted: !res.writableFinished,
      };
      if (res.statusCode >= 500) settings.logger.warn(line, 'request completed');
      else settings.logger.info(line, 'request completed');
    };
    res.once('finish', log);
    res.once('close', log);
    await next();
  };
}
