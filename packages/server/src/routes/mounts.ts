import type { Router } from '@koa/router';
import send from 'send';
import type { AppContext, AppState } from '../internal/context.js';
import { listFiles } from '../internal/list-dir.js';
import { resolveMountFile } from '../internal/safe-path.js';
import type { StaticMount } from '../static-mounts.js';

/** Escapes path-to-regexp syntax so a prefix matches literally. */
function literal(prefix: string): string {
  return prefix.replace(/[{}()[\]+?!:*\\]/g, '\\$&');
}

function mountUrl(prefix: string, name: string): string {
  return `${prefix}/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/** Streams one file through `send` (content type, ETag, Last-Modified, Range, 304). */
function streamFile(ctx: AppContext, root: string, relPath: string): Promise<void> {
  const encoded = relPath.split('/').map(encodeURIComponent).join('/');
  const res = ctx.res;
  // `send` writes the response itself; Koa must not. The error middleware switches this
  // back on if `send` fails before writing anything.
  ctx.respond = false;
  // Koa starts every response at 404; `send` only ever sets 206/304/416 itself.
  res.statusCode = 200;
  return new Promise<void>((resolve, reject) => {
    const stream = send(ctx.req, encoded, {
      root,
      dotfiles: 'allow',
      index: false,
      etag: true,
      lastModified: true,
      acceptRanges: true,
    });
    stream.on('error', reject);
    res.once('finish', () => resolve());
    res.once('close', () => resolve());
    stream.pipe(res);
  });
}

/** Registers `GET <prefix>` (when `list`) and `GET <prefix>/<path>` (when `serve`) per mount. */
export function registerMountRoutes(
  router: Router<AppState>,
  mounts: readonly StaticMount[],
): void {
  for (const mount of mounts) {
    if (mount.list) {
      router.get(literal(mount.prefix), async (ctx) => {
        const files = await listFiles(mount.dir, mount.recursive);
        ctx.body = {
          ok: true,
          mount: mount.prefix,
          dir: mount.dir,
          count: files.length,
          entries: files.map((f) => ({
            name: f.name,
            url: mountUrl(mount.prefix, f.name),
            size: f.size,
            mtime: f.mtime,
          })),
        };
      });
    }
    if (mount.serve) {
      router.get(`${literal(mount.prefix)}/*path`, async (ctx) => {
        // The raw (still encoded) path: decoding once here, and only here, is what lets
        // resolveMountFile see %2e%2e, %2f and double encoding for what they are.
        const raw = ctx.path.slice(mount.prefix.length + 1);
        const file = await resolveMountFile(mount.dir, raw);
        await streamFile(ctx, file.realRoot, file.relPath);
      });
    }
  }
}
