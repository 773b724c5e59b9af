import type { Middleware } from 'koa';
import { errorResponseFor } from '../error-map.js';
import { type AppSettings, type AppState, sendFailure } from '../internal/context.js';

/**
 * The first Koa middleware: turns every thrown error into the failure envelope through
 * the one table in `error-map.ts`, and gives the bodyless 404/405/501 left by the router
 * the same envelope (`NOT_FOUND`, `METHOD_NOT_ALLOWED` + `Allow`, `NOT_IMPLEMENTED`).
 */
export function errorHandler(settings: AppSettings): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.respond === false || (ctx.body !== undefined && ctx.body !== null)) return;
      if (ctx.status === 404)
        sendFailure(ctx, 404, 'NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      else if (ctx.status === 405) {
        sendFailure(
          ctx,
          405,
          'METHOD_NOT_ALLOWED',
          `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`,
        );
      } else if (ctx.status === 501) {
        sendFailure(ctx, 501, 'NOT_IMPLEMENTED', `method ${ctx.method} is not implemented`);
      }
    } catch (err) {
      const mapped = errorResponseFor(err);
      const message = settings.redact(mapped.message);
      const logLine = { reqId: ctx.state.requestId, code: mapped.code, status: mapped.status, err };
      if (mapped.status >= 500) settings.logger.error(logLine, 'request failed');
      else settings.logger.debug(logLine, 'request rejected');
      if (ctx.res.headersSent) {
        // Mid-stream failure: the status line is gone; cutting the connection is all that is left.
        ctx.res.destroy();
        return;
      }
      ctx.respond = true;
      const headers = (err as { headers?: unknown }).headers;
      if (typeof headers === 'object' && headers !== null) {
        for (const [name, value] of Object.entries(headers)) {
          if (typeof value === 'string') ctx.set(name, value);
        }
      }
      if (mapped.code === 'UNAUTHORIZED') ctx.set('WWW-Authenticate', 'Bearer');
      sendFailure(ctx, mapped.status, mapped.code, message);
    }
  };
}
