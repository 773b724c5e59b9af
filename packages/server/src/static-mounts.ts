import { isAbsolute, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { ServerError } from './errors.js';

/** One validated static mount: `prefix` normalised, `dir` expanded and absolute. */
export interface StaticMount {
  /** URL prefix with a leading `/` and no trailing `/`, e.g. `/files`. */
  readonly prefix: string;
  /** Absolute local directory. */
  readonly dir: string;
  /** `GET <prefix>` lists the directory as JSON. */
  readonly list: boolean;
  /** `GET <prefix>/<path>` streams files. */
  readonly serve: boolean;
  /** The listing walks subdirectories. */
  readonly recursive: boolean;
}

/** One problem found in a static-mounts document. */
export interface MountDiagnostic {
  /** JSON pointer into the document, e.g. `/mounts/0/prefix`. */
  readonly path: string;
  readonly message: string;
}

/** Options of {@link validateStaticMounts}. */
export interface ValidateStaticMountsOptions {
  /** Relative `dir`s resolve against this directory. @default the current working directory */
  readonly baseDir?: string;
}

/** JSON Schema of the `static-mounts` config file (`mounts: [{prefix, dir, list, serve, recursive}]`). */
export const staticMountsSchema = {
  $id: 'https://browsertask.dev/schemas/static-mounts.json',
  title: 'browsertask static mounts',
  type: 'object',
  required: ['mounts'],
  properties: {
    mounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['prefix', 'dir'],
        properties: {
          prefix: {
            type: 'string',
            minLength: 1,
            description: 'URL prefix; a leading / is added.',
          },
          dir: {
            type: 'string',
            minLength: 1,
            description: 'Local directory; ${NAME} and ${NAME:-default} are expanded.',
          },
          list: { type: 'boolean', default: false },
          serve: { type: 'boolean', default: false },
          recursive: { type: 'boolean', default: false },
        },
      },
    },
  },
} as const;

/** The document as the schema accepts it, before normalisation. */
interface RawMountsDocument {
  mounts: {
    prefix: string;
    dir: string;
    list?: boolean;
    serve?: boolean;
    recursive?: boolean;
  }[];
}

const ajv = new Ajv({ allErrors: true });
const validateSchema = ajv.compile<RawMountsDocument>(staticMountsSchema);

/** Routes of the server itself: a mount may not shadow them. */
const RESERVED_PREFIXES = ['/health', '/tasks'];

const VAR = /\$\{([^}]*)\}/g;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${NAME}` (empty when unset) and `${NAME:-default}` (default when unset or
 * empty) in `text` from `env`. Returns the problems instead of throwing.
 */
export function expandEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { value: string; problems: string[] } {
  const problems: string[] = [];
  const value = text.replace(VAR, (whole, inner: string) => {
    const sep = inner.indexOf(':-');
    const name = sep === -1 ? inner : inner.slice(0, sep);
    if (!VAR_NAME.test(name)) {
      problems.push(
        `"${whole}" is not a valid variable reference (expected \${NAME} or \${NAME:-default})`,
      );
      return whole;
    }
    const current = env[name];
    if (sep === -1) return current ?? '';
    return current === undefined || current === '' ? inner.slice(sep + 2) : current;
  });
  return { value, problems };
}

/** `files/` → `/files`; `/a//b/` → `/a/b`. */
function normalisePrefix(prefix: string): string {
  const parts = prefix.split('/').filter((p) => p !== '');
  return `/${parts.join('/')}`;
}

function schemaDiagnostic(e: ErrorObject): MountDiagnostic {
  const path = e.instancePath === '' ? '/' : e.instancePath;
  if (e.keyword === 'required') {
    return { path, message: `missing required field "${String(e.params['missingProperty'])}"` };
  }
  return { path, message: e.message ?? 'is invalid' };
}

/**
 * Validates a parsed `static-mounts` document (YAML/JSON) and normalises it: adds the
 * leading `/` to prefixes, trims trailing slashes, expands `${NAME}` /
 * `${NAME:-default}` in `dir` from `env`, resolves `dir` absolute against `baseDir`,
 * applies the `false` defaults. `null`/`undefined` (an empty file) means no mounts.
 * Every problem is returned, not only the first.
 *
 * @example
 * const r = validateStaticMounts(yaml.parse(text), process.env, { baseDir: bundleDir });
 * if (!r.ok) for (const d of r.diagnostics) console.error(`static-mounts${d.path}: ${d.message}`);
 */
export function validateStaticMounts(
  data: unknown,
  env: Readonly<Record<string, string | undefined>>,
  options: ValidateStaticMountsOptions = {},
): { ok: true; value: StaticMount[] } | { ok: false; diagnostics: MountDiagnostic[] } {
  if (data === null || data === undefined) return { ok: true, value: [] };
  if (!validateSchema(data)) {
    return { ok: false, diagnostics: (validateSchema.errors ?? []).map(schemaDiagnostic) };
  }
  const diagnostics: MountDiagnostic[] = [];
  const value: StaticMount[] = [];
  const seen = new Map<string, number>();
  data.mounts.forEach((m, i) => {
    const prefix = normalisePrefix(m.prefix);
    if (prefix === '/') {
      diagnostics.push({
        path: `/mounts/${i}/prefix`,
        message: 'prefix "/" would shadow every route',
      });
    }
    for (const reserved of RESERVED_PREFIXES) {
      if (prefix === reserved || prefix.startsWith(`${reserved}/`)) {
        diagnostics.push({
          path: `/mounts/${i}/prefix`,
          message: `prefix "${prefix}" collides with the server's own ${reserved} route`,
        });
      }
    }
    const previous = seen.get(prefix);
    if (previous !== undefined) {
      diagnostics.push({
        path: `/mounts/${i}/prefix`,
        message: `prefix "${prefix}" is already declared by /mounts/${previous}`,
      });
    }
    seen.set(prefix, i);
    const expanded = expandEnv(m.dir, env);
    for (const message of expanded.problems)
      diagnostics.push({ path: `/mounts/${i}/dir`, message });
    if (expanded.value.trim() === '') {
      diagnostics.push({
        path: `/mounts/${i}/dir`,
        message: `dir "${m.dir}" expands to an empty path`,
      });
    }
    const dir = isAbsolute(expanded.value)
      ? resolve(expanded.value)
      : options.baseDir === undefined
        ? resolve(expanded.value)
        : resolve(options.baseDir, expanded.value);
    value.push({
      prefix,
      dir,
      list: m.list ?? false,
      serve: m.serve ?? false,
      recursive: m.recursive ?? false,
    });
  });
  return diagnostics.length > 0 ? { ok: false, diagnostics } : { ok: true, value };
}

/**
 * Like {@link validateStaticMounts} but throws.
 * @throws ServerError `ERR_SERVER_INVALID_MOUNTS` listing every problem.
 */
export function assertStaticMounts(
  data: unknown,
  env: Readonly<Record<string, string | undefined>>,
  options: ValidateStaticMountsOptions = {},
): StaticMount[] {
  const r = validateStaticMounts(data, env, options);
  if (r.ok) return r.value;
  const lines = r.diagnostics.map((d) => `  ${d.path}: ${d.message}`);
  throw new ServerError('ERR_SERVER_INVALID_MOUNTS', `invalid static mounts:\n${lines.join('\n')}`);
}
