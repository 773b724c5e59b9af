import { Ajv, type ErrorObject } from 'ajv';

/** One pool's entry in `pool.yaml` (service-spec "Pool configuration"). */
export interface PoolSpec {
  /** Windows pre-allocated; the pool's maximum concurrency. */
  size: number;
  /** Windows use a stable profile directory that survives restarts. @default false */
  persistent?: boolean;
  /** Profile name (directory under the profile root) of a persistent pool. @default the pool tag */
  profile?: string;
  /**
   * A remote browser hosting this pool's windows: a Playwright browser-server websocket
   * (`ws://host:port/<path>`, from `chromium.launchServer()`) or a CDP endpoint
   * (`http://host:9222`, or `ws://…/devtools/browser/<id>`).
   */
  endpoint?: string;
}

/** The whole pool configuration: `pools: { <tag>: PoolSpec }`. */
export interface PoolConfig {
  /** Pools by tag. */
  pools: Record<string, PoolSpec>;
}

/** One problem found in a pool configuration. */
export interface PoolConfigDiagnostic {
  /** JSON pointer inside the document, e.g. `/pools/shop/size` (`""` for the root). */
  path: string;
  /** What is wrong and what is expected. */
  message: string;
}

/** Result of {@link validatePoolConfig}. */
export type PoolConfigResult =
  { ok: true; value: PoolConfig } | { ok: false; diagnostics: PoolConfigDiagnostic[] };

/** Tag of the pool injected when none named `default` is declared. */
export const DEFAULT_POOL_TAG = 'default';

/** Names safe as a directory segment (downloads and profiles live under them). */
const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

/** The spec's persistent-size rule, as a diagnostic message. */
export const PERSISTENT_SIZE_MESSAGE =
  'persistent pools must have size 1 (two browser processes cannot share one profile directory)';

/**
 * JSON Schema (draft 2020-12 subset, ajv) of `pool.yaml`. An empty document or one without
 * `pools` is valid and gets the injected default pool.
 */
export const poolConfigSchema = {
  $id: 'https://browsertask.dev/schemas/pool.json',
  title: 'browsertask pool configuration',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    pools: {
      type: ['object', 'null'],
      propertyNames: { pattern: NAME_PATTERN },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['size'],
        properties: {
          size: { type: 'integer', minimum: 1, maximum: 64 },
          persistent: { type: 'boolean', default: false },
          profile: { type: 'string', pattern: NAME_PATTERN },
          endpoint: { type: 'string', pattern: '^(wss?|https?)://[^\\s]+$' },
        },
      },
    },
  },
} as const;

let compiled: ReturnType<Ajv['compile']> | undefined;

function validator(): ReturnType<Ajv['compile']> {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(poolConfigSchema);
  return compiled;
}

function describe(e: ErrorObject): PoolConfigDiagnostic {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return {
        path: e.instancePath,
        message: `unknown field "${String(params.additionalProperty)}" (expected size, persistent, profile, endpoint)`,
      };
    case 'required':
      return {
        path: `${e.instancePath}/${String(params.missingProperty)}`,
        message: `missing required field "${String(params.missingProperty)}"`,
      };
    case 'propertyNames':
      return {
        path: `${e.instancePath}/${String(params.propertyName)}`,
        message: `invalid pool tag "${String(params.propertyName)}" (letters, digits, ".", "_", "-"; at most 64)`,
      };
    case 'pattern':
      return e.instancePath.endsWith('/endpoint')
        ? {
            path: e.instancePath,
            message: 'endpoint must be a ws://, wss://, http:// or https:// URL',
          }
        : {
            path: e.instancePath,
            message: 'profile must be a plain name (letters, digits, ".", "_", "-"; at most 64)',
          };
    default:
      return { path: e.instancePath, message: e.message ?? `invalid (${e.keyword})` };
  }
}

/**
 * Validates a parsed `pool.yaml` document and normalises it: defaults applied
 * (`persistent: false`, `profile` = tag for persistent pools) and a `default` pool of size 1
 * injected when no pool named `default` is declared (as webtasks does; so a bundle that
 * declares only `shop` still serves tasks without a `pool` line). Reports every problem.
 *
 * @param data - the parsed document (`undefined`/`null` for a missing or empty file)
 * @example
 * const r = validatePoolConfig(YAML.parse(text));
 * if (!r.ok) for (const d of r.diagnostics) console.error(`pool.yaml:${d.path}: ${d.message}`);
 */
export function validatePoolConfig(data: unknown): PoolConfigResult {
  const validate = validator();
  const copy: unknown = data === undefined ? null : structuredClone(data);
  const diagnostics: PoolConfigDiagnostic[] = [];
  if (!validate(copy)) {
    const seen = new Set<string>();
    for (const e of validate.errors ?? []) {
      // propertyNames failures come with a duplicate "pattern" error on the same name.
      if (e.keyword === 'pattern' && e.propertyName !== undefined) continue;
      const d = describe(e);
      const key = `${d.path}\u0000${d.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        diagnostics.push(d);
      }
    }
    return { ok: false, diagnostics };
  }
  const raw = (copy as { pools?: Record<string, PoolSpec> | null } | null)?.pools ?? {};
  const pools: Record<string, PoolSpec> = {};
  const profiles = new Map<string, string>();
  for (const [tag, spec] of Object.entries(raw)) {
    const persistent = spec.persistent === true;
    if (persistent && spec.size !== 1) {
      diagnostics.push({ path: `/pools/${tag}/size`, message: PERSISTENT_SIZE_MESSAGE });
    }
    if (persistent && spec.endpoint !== undefined) {
      diagnostics.push({
        path: `/pools/${tag}/endpoint`,
        message:
          'a persistent pool keeps its profile on this host and cannot use a remote endpoint',
      });
    }
    if (!persistent && spec.profile !== undefined) {
      diagnostics.push({
        path: `/pools/${tag}/profile`,
        message: 'profile is only meaningful with persistent: true',
      });
    }
    const entry: PoolSpec = { size: spec.size, persistent };
    if (persistent) {
      const profile = spec.profile ?? tag;
      const other = profiles.get(profile);
      if (other !== undefined) {
        diagnostics.push({
          path: `/pools/${tag}/profile`,
          message: `profile "${profile}" is already used by pool "${other}" (two browser processes cannot share one profile directory)`,
        });
      }
      profiles.set(profile, tag);
      entry.profile = profile;
    }
    if (spec.endpoint !== undefined) entry.endpoint = spec.endpoint;
    pools[tag] = entry;
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  pools[DEFAULT_POOL_TAG] ??= { size: 1, persistent: false };
  return { ok: true, value: { pools } };
}
