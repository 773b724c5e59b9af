/**
 * `browsertask bundle`: validates a recipes directory, transpiles recipes to YAML and
 * writes a deterministic zip (sorted entries, fixed timestamps and modes), atomically.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { toYaml } from '@browsertask/recipe-parser';
import { ZipFile } from 'yazl';
import { isRecipePath, loadBundleTasks } from './bundle-tasks.js';
import { isConfigFilePath, loadBundleConfig, type BundleFiles } from './config-files.js';
import { formatProblem } from './diagnostics.js';
import { PUBLISHED_ENV_NAMES } from './published-env.js';

/**
 * The fixed timestamp of every entry. Built from local-time fields because the DOS
 * timestamp stores local fields: the bytes are the same in every time zone.
 */
const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);
/** Regular file, rw-r--r--. */
const FILE_MODE = 0o100644;

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  async function visit(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
    }
  }
  await visit(root);
  return out.sort();
}

/**
 * A bundle source directory as {@link BundleFiles}. A directory without `tasks/` is
 * taken as the tasks folder itself (its files appear under `tasks/`).
 */
export async function openSourceDir(
  dir: string,
): Promise<BundleFiles & { root: string; mapped: boolean }> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`${dir}: not a directory`);
  const hasTasks = (await stat(join(dir, 'tasks')).catch(() => undefined))?.isDirectory() === true;
  const files = await walk(dir);
  const paths = hasTasks ? files : files.map((f) => `tasks/${f}`);
  const toDisk = (p: string): string => join(dir, hasTasks ? p : p.slice('tasks/'.length));
  return {
    root: dir,
    mapped: !hasTasks,
    list: () => Promise.resolve(paths),
    readText: (p) => readFile(toDisk(p), 'utf8'),
  };
}

/** Result of {@link createBundleZip}. */
export type CreateBundleZipResult =
  | { readonly ok: true; readonly entries: readonly string[]; readonly warnings: readonly string[] }
  | {
      readonly ok: false;
      readonly errors: readonly string[];
      readonly warnings: readonly string[];
    };

/** Options of {@link createBundleZip}. */
export interface CreateBundleZipOptions {
  /** Environment for validating `${NAME}` in static-mounts (not stored). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Validates `recipesDir` and writes `outputZip`. On any error nothing is written
 * (the zip is built in a temp file beside the output and renamed at the end).
 * @example const r = await createBundleZip('bundle-example', 'dist/bundle.zip', { env: process.env });
 */
export async function createBundleZip(
  recipesDir: string,
  outputZip: string,
  options: CreateBundleZipOptions,
): Promise<CreateBundleZipResult> {
  const source = await openSourceDir(recipesDir);
  const prefix = recipesDir.endsWith('/') ? recipesDir : `${recipesDir}/`;
  const display = prefix;
  const config = await loadBundleConfig(source, {
    env: options.env,
    baseDir: recipesDir,
    displayPrefix: display,
  });
  const loaded = await loadBundleTasks(source, display, [
    ...(config.config.secrets ?? []).map((d) => d.name),
    ...PUBLISHED_ENV_NAMES,
  ]);
  const errors = [
    ...loaded.errors,
    ...config.problems.filter((p) => p.severity === 'error').map(formatProblem),
  ];
  const warnings = [
    ...loaded.warnings,
    ...config.problems.filter((p) => p.severity === 'warning').map(formatProblem),
  ];
  if (errors.length > 0) return { ok: false, errors, warnings };

  const entries = new Map<string, Buffer>();
  for (const { path, task } of loaded.tasks) {
    if (isRecipePath(path)) {
      const yamlPath = path.replace(/\.(task|webtask)$/, '.yaml');
      if (entries.has(yamlPath)) {
        errors.push(`${display}${path}:1:1: transpiles to ${yamlPath}, which already exists`);
      }
      entries.set(yamlPath, Buffer.from(toYaml(task), 'utf8'));
    } else {
      if (entries.has(path)) {
        errors.push(`${display}${path}:1:1: clashes with a transpiled recipe of the same name`);
      }
      entries.set(path, Buffer.from(await source.readText(path), 'utf8'));
    }
  }
  if (errors.length > 0) return { ok: false, errors, warnings };
  for (const path of await source.list()) {
    if (path.startsWith('scripts/') || isConfigFilePath(path)) {
      const disk = join(source.root, source.mapped ? path.slice('tasks/'.length) : path);
      entries.set(path, await readFile(disk));
    }
  }

  const names = [...entries.keys()].sort();
  const zip = new ZipFile();
  for (const name of names) {
    zip.addBuffer(entries.get(name)!, name, {
      mtime: FIXED_MTIME,
      mode: FILE_MODE,
      compress: true,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  const temp = join(dirname(outputZip), `.${basename(outputZip)}.${process.pid}.tmp`);
  // Like any build tool's output path: missing parent directories are created.
  await mkdir(dirname(outputZip), { recursive: true });
  try {
    await pipeline(zip.outputStream, createWriteStream(temp));
    await rename(temp, outputZip);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return { ok: true, entries: names, warnings };
}
