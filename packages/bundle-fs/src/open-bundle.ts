import { open, realpath, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { DirectoryBundle } from './directory-bundle.js';
import { BundleError } from './errors.js';
import { errnoCode, throwIfAborted } from './internal/util.js';
import { ZipArchive } from './internal/zip-archive.js';
import { DEFAULT_BUNDLE_LIMITS } from './limits.js';
import { noopLogger } from './logger.js';
import type { Bundle, BundleLimits, OpenBundleOptions } from './types.js';
import { ZipBundle } from './zip-bundle.js';

const ARCHIVE_EXTENSIONS = new Set(['.zip', '.jar']);

async function looksLikeZip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    if (bytesRead < 4 || head[0] !== 0x50 || head[1] !== 0x4b) return false;
    return (head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6);
  } finally {
    await fh.close();
  }
}

function resolveLimits(options: OpenBundleOptions): BundleLimits {
  const limits = { ...DEFAULT_BUNDLE_LIMITS };
  for (const key of Object.keys(DEFAULT_BUNDLE_LIMITS) as (keyof BundleLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0)) {
      throw new TypeError(
        `openBundle option ${key} must be a positive number, got ${String(value)}`,
      );
    }
    limits[key] = value;
  }
  return limits;
}

/**
 * Opens a bundle: a directory, or a `.zip`/`.jar` archive read in place (any other file that
 * starts with a zip signature is read as an archive too). The whole bundle is validated once:
 * unsafe archive entry names, symlinks escaping a directory, limits.
 *
 * @throws {BundleError} `ERR_BUNDLE_NOT_FOUND` (no such path), `ERR_BUNDLE_UNSUPPORTED` (neither
 *   a directory nor a zip), `ERR_BUNDLE_CORRUPT`, `ERR_BUNDLE_UNSAFE_PATH`,
 *   `ERR_BUNDLE_SYMLINK_ESCAPE`, `ERR_BUNDLE_LIMIT`, `ERR_BUNDLE_ABORTED`.
 * @example
 * const bundle = await openBundle(process.env.SERVICE_BUNDLE ?? './bundle-example');
 * for (const file of await bundle.list('tasks/**\/*.{task,webtask,yaml}')) {
 *   console.log(file, (await bundle.readText(file)).length);
 * }
 * await bundle.close();
 */
export async function openBundle(path: string, options: OpenBundleOptions = {}): Promise<Bundle> {
  const absolute = resolve(path);
  const limits = resolveLimits(options);
  const logger = options.logger ?? noopLogger;
  const what = `opening bundle ${absolute}`;
  throwIfAborted(options.signal, what);
  let st;
  try {
    st = await stat(absolute);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new BundleError(
        'ERR_BUNDLE_NOT_FOUND',
        `no bundle at ${absolute}: expected a directory or a .zip/.jar archive`,
        { cause: err },
      );
    }
    throw err;
  }
  throwIfAborted(options.signal, what);
  if (st.isDirectory()) {
    const bundle = new DirectoryBundle(absolute, await realpath(absolute), limits, logger);
    await bundle.validate();
    throwIfAborted(options.signal, what);
    return bundle;
  }
  if (
    st.isFile() &&
    (ARCHIVE_EXTENSIONS.has(extname(absolute).toLowerCase()) || (await looksLikeZip(absolute)))
  ) {
    const archive = await ZipArchive.open(absolute, limits, options.signal);
    if (options.signal?.aborted === true) {
      await archive.retire();
      throwIfAborted(options.signal, what);
    }
    return new ZipBundle(absolute, archive, limits, logger);
  }
  throw new BundleError(
    'ERR_BUNDLE_UNSUPPORTED',
    `bundle ${absolute} is neither a directory nor a .zip/.jar archive`,
  );
}
