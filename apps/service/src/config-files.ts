/**
 * Loads the bundle's config files (pool, static-mounts, secrets), each validated with
 * its owning package's schema. Found at the bundle root with or without a
 * `.yaml`/`.yml`/`.json` extension; `pool` also under `tasks/` (where webtasks keeps it).
 */
import { validateSecretsConfig } from '@browsertask/secrets';
import { validateStaticMounts } from '@browsertask/server';
import { validatePoolConfig } from '@browsertask/window-pool';
import { formatDataPath, parseLocated, splitDataPath, type Problem } from './diagnostics.js';

/** The read side of a bundle the loader needs (bundle-fs' Bundle fits). */
export interface BundleFiles {
  list(glob?: string): Promise<string[]>;
  readText(path: string): Promise<string>;
}

/** Names of the config files. */
export const CONFIG_FILE_NAMES = ['pool', 'static-mounts', 'secrets'] as const;

/** One of {@link CONFIG_FILE_NAMES}. */
export type ConfigFileName = (typeof CONFIG_FILE_NAMES)[number];

const EXTENSIONS = ['', '.yaml', '.yml', '.json'];

/** Every bundle path a config file may live at, in lookup order. */
export function configFileCandidates(name: ConfigFileName): string[] {
  const dirs = name === 'pool' ? ['', 'tasks/'] : [''];
  return dirs.flatMap((dir) => EXTENSIONS.map((ext) => `${dir}${name}${ext}`));
}

/** Whether a bundle path is a config file rather than a task or a script. */
export function isConfigFilePath(path: string): boolean {
  return CONFIG_FILE_NAMES.some((name) => configFileCandidates(name).includes(path));
}

type PoolValue = Extract<ReturnType<typeof validatePoolConfig>, { ok: true }>['value'];
type SecretsValue = Extract<ReturnType<typeof validateSecretsConfig>, { ok: true }>['value'];
type MountsValue = Extract<ReturnType<typeof validateStaticMounts>, { ok: true }>['value'];

/** The validated config files, plus where each came from. */
export interface BundleConfig {
  /** Validated pool config; `undefined` when the bundle has no pool file. */
  readonly pool: PoolValue | undefined;
  readonly secrets: SecretsValue | undefined;
  readonly mounts: MountsValue | undefined;
  /** Bundle path of each file found. */
  readonly files: Partial<Record<ConfigFileName, string>>;
}

/** Result of {@link loadBundleConfig}: the config, or every problem (errors and warnings). */
export interface LoadBundleConfigResult {
  readonly config: BundleConfig;
  readonly problems: readonly Problem[];
}

/** Options of {@link loadBundleConfig}. */
export interface LoadBundleConfigOptions {
  /** Environment for `${NAME}` expansion of mount dirs. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Directory relative mount dirs resolve against: the bundle root (for a zip, the
   * directory holding it).
   */
  readonly baseDir: string;
  /** Prefix for file names in problems (e.g. the bundle path as typed). */
  readonly displayPrefix?: string;
}

interface Diagnostic {
  readonly path?: unknown;
  readonly instancePath?: unknown;
  readonly message?: unknown;
}

function toProblems(
  diagnostics: readonly unknown[],
  file: string,
  locate: (path: readonly (string | number)[]) => { line: number; col: number },
): Problem[] {
  return diagnostics.map((raw) => {
    const d = (
      typeof raw === 'object' && raw !== null ? raw : { message: String(raw) }
    ) as Diagnostic;
    const segments = splitDataPath(d.path ?? d.instancePath);
    const { line, col } = locate(segments);
    const message = typeof d.message === 'string' ? d.message : 'invalid value';
    return {
      file,
      line,
      col,
      message: `${formatDataPath(segments)}: ${message}`,
      severity: 'error',
    };
  });
}

/**
 * Finds, parses and validates the config files of a bundle. Never throws for invalid
 * content: every problem is returned, located as `file:line:col`.
 * @example const { config, problems } = await loadBundleConfig(bundle, { env: process.env, baseDir });
 */
export async function loadBundleConfig(
  bundle: BundleFiles,
  options: LoadBundleConfigOptions,
): Promise<LoadBundleConfigResult> {
  const present = new Set(await bundle.list());
  const problems: Problem[] = [];
  const files: Partial<Record<ConfigFileName, string>> = {};
  const display = (p: string): string => `${options.displayPrefix ?? ''}${p}`;
  const parsed: Partial<
    Record<
      ConfigFileName,
      {
        data: unknown;
        file: string;
        locate: (p: readonly (string | number)[]) => { line: number; col: number };
      }
    >
  > = {};

  for (const name of CONFIG_FILE_NAMES) {
    const found = configFileCandidates(name).filter((p) => present.has(p));
    const path = found[0];
    if (path === undefined) continue;
    for (const extra of found.slice(1)) {
      problems.push({
        file: display(extra),
        line: 1,
        col: 1,
        message: `ignored: ${path} is the ${name} config file (only one is read)`,
        severity: 'warning',
      });
    }
    files[name] = path;
    const doc = parseLocated(await bundle.readText(path), display(path));
    problems.push(...doc.errors);
    if (doc.errors.length === 0)
      parsed[name] = { data: doc.data ?? {}, file: display(path), locate: doc.locate };
  }

  let pool: PoolValue | undefined;
  if (parsed.pool) {
    const r = validatePoolConfig(parsed.pool.data);
    if (r.ok) pool = r.value;
    else problems.push(...toProblems(r.diagnostics, parsed.pool.file, parsed.pool.locate));
  }
  let secrets: SecretsValue | undefined;
  if (parsed.secrets) {
    const r = validateSecretsConfig(parsed.secrets.data);
    if (r.ok) secrets = r.value;
    else problems.push(...toProblems(r.diagnostics, parsed.secrets.file, parsed.secrets.locate));
  }
  let mounts: MountsValue | undefined;
  if (parsed['static-mounts']) {
    const entry = parsed['static-mounts'];
    const r = validateStaticMounts(entry.data, options.env, { baseDir: options.baseDir });
    if (r.ok) mounts = r.value;
    else problems.push(...toProblems(r.diagnostics, entry.file, entry.locate));
  }
  return { config: { pool, secrets, mounts, files }, problems };
}
