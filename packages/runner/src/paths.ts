/**
 * Path safety for file-writing and file-reading actions. A relative path resolves under
 * the window's downloads directory; an absolute path is accepted only when it lies inside
 * one of the allowed roots (the downloads root, the recordings directory, extra mount
 * directories the service passes). `..` escapes fail with a message naming the roots.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { RunnerError } from './errors.js';

/** Directories a run may touch. */
export interface PathRoots {
  /** The window's own downloads directory: where relative paths land. */
  readonly base: string;
  /** Every directory (including `base`) an absolute path may point into. */
  readonly allowed: readonly string[];
}

/** Whether `child` is `root` or inside it (both absolute, normalised). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** Resolves symlinks of the longest existing prefix, so a link cannot smuggle a path out. */
function realish(path: string): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(current);
      return rest.length === 0 ? real : resolve(real, ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}

/**
 * Resolves a file parameter against the allowed roots.
 *
 * @param step - step name for the error message
 * @param param - parameter name for the error message
 * @param path - the rendered path (relative → under `roots.base`)
 * @throws RunnerError `ERR_RUNNER_PATH_ESCAPE`
 */
export function resolveSafePath(
  step: string,
  param: string,
  path: string,
  roots: PathRoots,
): string {
  if (path.trim() === '') {
    throw new RunnerError('ERR_RUNNER_INVALID_PARAM', `step "${step}": param "${param}" is empty`, {
      step,
    });
  }
  const target = isAbsolute(path) ? resolve(path) : resolve(roots.base, path);
  const real = realish(target);
  for (const root of roots.allowed) {
    const absRoot = resolve(root);
    if (isInside(absRoot, target) && isInside(realish(absRoot), real)) return target;
  }
  throw new RunnerError(
    'ERR_RUNNER_PATH_ESCAPE',
    `step "${step}": ${param} "${path}" escapes the allowed directories (${roots.allowed.join(', ')})`,
    { step },
  );
}

/**
 * Normalises a bundle-relative path (`/`-separated) and refuses escapes.
 *
 * @returns the clean path, or `undefined` when it leaves `prefix`
 */
export function cleanBundlePath(prefix: string, path: string): string | undefined {
  const parts: string[] = [];
  for (const part of `${prefix}/${path}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  const clean = parts.join('/');
  const base = prefix.replace(/\/+$/, '');
  if (base !== '' && !clean.startsWith(`${base}/`)) return undefined;
  return clean;
}
