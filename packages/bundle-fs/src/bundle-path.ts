import { BundleError } from './errors.js';

/**
 * Why a path is unsafe inside a bundle, or `undefined` when it is safe: absolute (`/x`, `C:x`),
 * containing a `..` segment, a backslash or a NUL character. Empty and `.` segments are fine
 * (they normalise away).
 */
export function unsafePathReason(path: string): string | undefined {
  if (path.includes('\0')) return 'contains a NUL character';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/')) return 'is absolute';
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter';
  if (path.split('/').includes('..')) return 'contains a ".." segment';
  return undefined;
}

/**
 * Normalises a bundle-relative path to its canonical `/`-separated form (no empty or `.`
 * segments, no leading `./`).
 *
 * @throws {BundleError} `ERR_BUNDLE_UNSAFE_PATH` when the path is empty, absolute, contains `..`,
 *   a backslash or NUL (see {@link unsafePathReason}).
 * @example normalizeBundlePath('./tasks//a.task') // 'tasks/a.task'
 */
export function normalizeBundlePath(path: string): string {
  if (typeof path !== 'string') {
    throw new BundleError(
      'ERR_BUNDLE_UNSAFE_PATH',
      `bundle path must be a string, got ${typeof path}`,
    );
  }
  const reason = unsafePathReason(path);
  if (reason !== undefined) {
    throw new BundleError('ERR_BUNDLE_UNSAFE_PATH', `unsafe bundle path "${path}": it ${reason}`, {
      entry: path,
    });
  }
  const normalized = path
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  if (normalized === '') {
    throw new BundleError('ERR_BUNDLE_UNSAFE_PATH', `bundle path "${path}" names no file`, {
      entry: path,
    });
  }
  return normalized;
}
