/**
 * webtasks' result rules for capture actions: `path` only → written, nothing bound; a
 * name only → returned inline (base64 for binary, text for text); both → written and
 * bound as `{path, size, bytesB64}` (binary) or the text; neither → the step errors.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StepDef } from '@browsertask/recipe-parser';
import type { StepContext } from '../context.js';
import { RunnerError } from '../errors.js';
import { resolveSafePath } from '../paths.js';

/** Whether the step binds its result. */
export function hasName(step: StepDef): boolean {
  return step.as !== undefined && step.as !== '' && step.as !== '_';
}

/**
 * Fails unless the step has a `path` or a name.
 *
 * @throws RunnerError `ERR_RUNNER_INVALID_PARAM`
 */
export function requirePathOrName(step: StepDef, label: string, path: unknown): void {
  if ((typeof path !== 'string' || path === '') && !hasName(step)) {
    throw new RunnerError(
      'ERR_RUNNER_INVALID_PARAM',
      `step "${label}": needs a path or a result name (at least one)`,
      { step: label },
    );
  }
}

/**
 * Writes `content` under the allowed roots, creating parent directories.
 *
 * @returns the absolute path written
 * @throws RunnerError `ERR_RUNNER_PATH_ESCAPE`
 */
export async function writeSafe(
  ctx: StepContext,
  label: string,
  param: string,
  path: string,
  content: Buffer | string,
): Promise<string> {
  const target = resolveSafePath(label, param, path, ctx.roots);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, content);
  return target;
}

/** Applies the capture rules to binary output (screenshot, pdf, snapshot, record). */
export async function binaryOutput(
  step: StepDef,
  label: string,
  ctx: StepContext,
  path: unknown,
  bytes: Buffer,
): Promise<unknown> {
  requirePathOrName(step, label, path);
  if (typeof path === 'string' && path !== '') {
    const written = await writeSafe(ctx, label, 'path', path, bytes);
    return hasName(step)
      ? { path: written, size: bytes.length, bytesB64: bytes.toString('base64') }
      : undefined;
  }
  return bytes.toString('base64');
}

/** Applies the capture rules to text output (export): the text is bound either way. */
export async function textOutput(
  step: StepDef,
  label: string,
  ctx: StepContext,
  path: unknown,
  text: string,
): Promise<unknown> {
  requirePathOrName(step, label, path);
  if (typeof path === 'string' && path !== '') await writeSafe(ctx, label, 'path', path, text);
  return text;
}
