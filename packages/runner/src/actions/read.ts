/**
 * Reading files for `read-file`, `set-cookies file`, `html-to-pdf file`: only inside the
 * allowed roots (downloads root, recordings dir, mounts) or the bundle. A relative path is
 * looked up in the window's downloads directory first, then in the bundle.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { StepContext } from '../context.js';
import { RunnerError } from '../errors.js';
import { cleanBundlePath, resolveSafePath } from '../paths.js';

/**
 * Reads a file, or returns `undefined` when it does not exist.
 *
 * @throws RunnerError `ERR_RUNNER_PATH_ESCAPE`
 */
export async function readAllowed(
  ctx: StepContext,
  label: string,
  param: string,
  path: string,
): Promise<Buffer | undefined> {
  const local = resolveSafePath(label, param, path, ctx.roots);
  try {
    return await readFile(local);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!isAbsolute(path) && ctx.bundle !== undefined) {
    const inBundle = cleanBundlePath('', path);
    if (inBundle !== undefined && (await ctx.bundle.stat(inBundle)) !== undefined) {
      return ctx.bundle.readFile(inBundle);
    }
  }
  return undefined;
}

/**
 * Like {@link readAllowed} but a missing file is an error.
 *
 * @throws RunnerError `ERR_RUNNER_PATH_ESCAPE`, `ERR_RUNNER_STEP_FAILED`
 */
export async function readRequired(
  ctx: StepContext,
  label: string,
  param: string,
  path: string,
): Promise<Buffer> {
  const bytes = await readAllowed(ctx, label, param, path);
  if (bytes === undefined) {
    throw new RunnerError(
      'ERR_RUNNER_STEP_FAILED',
      `step "${label}": ${param} "${path}" not found`,
      {
        step: label,
      },
    );
  }
  return bytes;
}
