/**
 * The service configuration: every `SERVICE_*` variable of the spec and design.md,
 * with its default, read as a pure function of an environment object.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { ServiceError } from './errors.js';

/** The resolved service configuration (paths absolute). */
export interface ServiceConfig {
  /** Bind address. @default '127.0.0.1' */
  readonly host: string;
  /** HTTP port; 0 picks a free one. @default 8765 */
  readonly port: number;
  /** Absolute path of the bundle (directory or zip/jar). @default './bundle-example' */
  readonly bundlePath: string;
  /** Root of the per-window download directories. @default './build/downloads' */
  readonly downloadsDir: string;
  /** Where recordings are written. @default '<downloadsDir>/recordings' */
  readonly recordingsDir: string;
  /** Whether the browser runs headless (after the no-display fallback). @default false */
  readonly headless: boolean;
  /** Where persistent profiles live. @default '~/.service/profiles' */
  readonly profileDir: string;
  /** Chromium executable, when set; else auto-detected. */
  readonly browserPath?: string;
  /** Attach to a running browser over CDP instead of launching one. */
  readonly cdpUrl?: string;
  /** Bearer token required on every route but `GET /health`, when set. */
  readonly token?: string;
  /** pino level. @default 'info' */
  readonly logLevel: LogLevel;
  /** Largest accepted request body. @default 1048576 */
  readonly maxBodyBytes: number;
  /** Task timeout when a recipe declares none. @default 60000 */
  readonly taskTimeoutMs: number;
  /** How long a run waits for a free window (spec: 30 s). @default 30000 */
  readonly acquireTimeoutMs: number;
  /** SSE heartbeat interval (spec: 15 s). @default 15000 */
  readonly heartbeatMs: number;
  /** How long a graceful shutdown waits for running runs. @default 10000 */
  readonly shutdownTimeoutMs: number;
}

/** pino log levels accepted by `SERVICE_LOG_LEVEL`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where the configuration is read: the environment plus the facts a path needs. */
export interface ReadConfigOptions {
  /** Directory relative paths resolve against. */
  readonly cwd: string;
  /** The user's home directory (for `~`). */
  readonly homeDir: string;
  /** `process.platform`; the no-display fallback only applies on Linux. @default 'linux' */
  readonly platform?: string;
}

/** The configuration plus warnings to log once a logger exists. */
export interface ReadConfigResult {
  readonly config: ServiceConfig;
  /** Human-readable warnings (e.g. headful requested without a display). */
  readonly warnings: readonly string[];
}

/** Every variable this function reads, with its default (for `serve --help`). */
export const ENV_DEFAULTS: Readonly<Record<string, string>> = {
  SERVICE_HOST: '127.0.0.1',
  SERVICE_PORT: '8765',
  SERVICE_BUNDLE: './bundle-example',
  SERVICE_DOWNLOADS_DIR: './build/downloads',
  SERVICE_RECORDINGS_DIR: '<SERVICE_DOWNLOADS_DIR>/recordings',
  SERVICE_HEADLESS: 'false',
  SERVICE_PROFILE_DIR: '~/.service/profiles',
  SERVICE_BROWSER: '(auto-detected)',
  SERVICE_CDP_URL: '(launch a browser)',
  SERVICE_TOKEN: '(none)',
  SERVICE_LOG_LEVEL: 'info',
  SERVICE_MAX_BODY_BYTES: '1048576',
  SERVICE_TASK_TIMEOUT_MS: '60000',
  SERVICE_ACQUIRE_TIMEOUT_MS: '30000',
  SERVICE_HEARTBEAT_MS: '15000',
  SERVICE_SHUTDOWN_TIMEOUT_MS: '10000',
};

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ServiceError(
      'ERR_SERVICE_ENV',
      `${name}=${JSON.stringify(raw)} is invalid: expected an integer from ${min} to ${max}`,
    );
  }
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  throw new ServiceError(
    'ERR_SERVICE_ENV',
    `${name}=${JSON.stringify(raw)} is invalid: expected true or false`,
  );
}

function readPath(env: Env, name: string, fallback: string, options: ReadConfigOptions): string {
  const raw = nonEmpty(env, name) ?? fallback;
  const expanded =
    raw === '~'
      ? options.homeDir
      : raw.startsWith('~/')
        ? join(options.homeDir, raw.slice(2))
        : raw;
  return isAbsolute(expanded) ? expanded : resolve(options.cwd, expanded);
}

/**
 * Reads the service configuration from an environment object. Pure: it reads nothing
 * but its arguments.
 * @throws ServiceError `ERR_SERVICE_ENV` naming the variable when a value is invalid.
 * @example const { config, warnings } = readServiceConfig(process.env, { cwd: process.cwd(), homeDir: os.homedir() });
 */
export function readServiceConfig(env: Env, options: ReadConfigOptions): ReadConfigResult {
  const warnings: string[] = [];
  const downloadsDir = readPath(env, 'SERVICE_DOWNLOADS_DIR', './build/downloads', options);
  const logLevel = (nonEmpty(env, 'SERVICE_LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ServiceError(
      'ERR_SERVICE_ENV',
      `SERVICE_LOG_LEVEL=${JSON.stringify(logLevel)} is invalid: expected one of ${LOG_LEVELS.join(', ')}`,
    );
  }
  let headless = readBool(env, 'SERVICE_HEADLESS', false);
  const cdpUrl = nonEmpty(env, 'SERVICE_CDP_URL');
  const platform = options.platform ?? 'linux';
  if (
    !headless &&
    cdpUrl === undefined &&
    platform === 'linux' &&
    nonEmpty(env, 'DISPLAY') === undefined &&
    nonEmpty(env, 'WAYLAND_DISPLAY') === undefined
  ) {
    headless = true;
    warnings.push(
      'SERVICE_HEADLESS=false but there is no display (DISPLAY/WAYLAND_DISPLAY unset): running headless',
    );
  }
  const browserPath = nonEmpty(env, 'SERVICE_BROWSER');
  const token = nonEmpty(env, 'SERVICE_TOKEN');
  const config: ServiceConfig = {
    host: nonEmpty(env, 'SERVICE_HOST') ?? '127.0.0.1',
    port: readInt(env, 'SERVICE_PORT', 8765, 0, 65535),
    bundlePath: readPath(env, 'SERVICE_BUNDLE', './bundle-example', options),
    downloadsDir,
    recordingsDir: readPath(
      env,
      'SERVICE_RECORDINGS_DIR',
      join(downloadsDir, 'recordings'),
      options,
    ),
    headless,
    profileDir: readPath(env, 'SERVICE_PROFILE_DIR', '~/.service/profiles', options),
    ...(browserPath !== undefined
      ? { browserPath: readPath(env, 'SERVICE_BROWSER', browserPath, options) }
      : {}),
    ...(cdpUrl !== undefined ? { cdpUrl } : {}),
    ...(token !== undefined ? { token } : {}),
    logLevel: logLevel as LogLevel,
    maxBodyBytes: readInt(env, 'SERVICE_MAX_BODY_BYTES', 1024 * 1024, 1, 2 ** 31),
    taskTimeoutMs: readInt(env, 'SERVICE_TASK_TIMEOUT_MS', 60_000, 1, 2 ** 31),
    acquireTimeoutMs: readInt(env, 'SERVICE_ACQUIRE_TIMEOUT_MS', 30_000, 1, 2 ** 31),
    heartbeatMs: readInt(env, 'SERVICE_HEARTBEAT_MS', 15_000, 1, 2 ** 31),
    shutdownTimeoutMs: readInt(env, 'SERVICE_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 2 ** 31),
  };
  return { config, warnings };
}

/** Whether a bind address only accepts local connections. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
