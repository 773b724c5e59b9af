import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { ServerError } from '../errors.js';
import type { AppState } from '../internal/context.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * `Authorization: Bearer <token>` on every route except `GET /health` (401
 * `UNAUTHORIZED`). Compares SHA-256 digests with `timingSafeEqual`, so neither the
 * content nor the length of the token leaks through timing.
 */
export function bearerAuth(token: string): Middleware<AppState> {
  const expected = digest(token);
  return async (ctx, next) => {
    if (ctx.path === '/health' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      await next();
      return;
    }
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(ctx.get('authorization'));
    if (match === null || !timingSafeEqual(digest(match[1]!), expected)) {
      throw new ServerError(
        'ERR_SERVER_UNAUTHORIZED',
        match === null ? 'missing Authorization: Bearer <token> header' : 'invalid bearer token',
      );
    }
    await next();
  };
}
