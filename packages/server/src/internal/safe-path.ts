import { realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ServerError } from '../errors.js';

const forbidden = (why: string): ServerError =>
  new ServerError('ERR_SERVER_FORBIDDEN', `path escapes the mount root: ${why}`);
const notFound = (): ServerError => new ServerError('ERR_SERVER_NOT_FOUND', 'file not found');

/** Encoded `%` (double encoding), `/`, `\` and NUL are never legitimate in a mount path. */
const SUSPICIOUS_ESCAPES = /%(25|2f|5c|00)/i;

function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves the raw (still percent-encoded) path after a mount prefix to a regular file
 * inside `rootDir`, following symlinks only while they stay inside the root.
 * Returns the file's path relative to the real root, `/`-separated.
 *
 * @throws ServerError `ERR_SERVER_FORBIDDEN` for `..`/`.` segments (also encoded),
 *   double encoding, encoded separators, backslashes, NUL, absolute paths and symlinks
 *   leaving the root; `ERR_SERVER_NOT_FOUND` for missing files and directories.
 */
export async function resolveMountFile(
  rootDir: string,
  rawPath: string,
): Promise<{ realRoot: string; relPath: string; size: number }> {
  if (SUSPICIOUS_ESCAPES.test(rawPath)) throw forbidden('encoded %, /, \\ or NUL');
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch (err) {
    throw new ServerError('ERR_SERVER_FORBIDDEN', 'path is not valid percent-encoding', {
      cause: err,
    });
  }
  if (decoded.includes('\0')) throw forbidden('NUL byte');
  if (decoded.includes('\\')) throw forbidden('backslash');
  const segments = decoded.split('/');
  if (segments.some((s) => s === '.' || s === '..')) throw forbidden('"." or ".." segment');
  // A trailing slash names a directory: never served.
  if (segments.length > 1 && segments.at(-1) === '') throw notFound();
  if (segments.some((s) => s === '')) throw forbidden('absolute path or empty segment');
  let realRoot: string;
  try {
    realRoot = await realpath(rootDir);
  } catch {
    throw notFound();
  }
  const candidate = join(realRoot, ...segments);
  if (!isInside(realRoot, candidate)) throw forbidden('outside the root');
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw notFound();
  }
  if (!isInside(realRoot, real)) throw forbidden('symlink leaving the root');
  const st = await stat(real).catch(() => undefined);
  if (st === undefined || !st.isFile()) throw notFound();
  return { realRoot, relPath: relative(realRoot, real).split(sep).join('/'), size: st.size };
}
