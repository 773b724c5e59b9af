import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Executable names tried on `PATH`, in order, after the well-known absolute paths. */
const CANDIDATE_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
] as const;

/** Well-known absolute locations, tried first (Debian/Ubuntu, snap, macOS). */
const CANDIDATE_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
] as const;

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a Chromium-family executable: `env.SERVICE_BROWSER` when set (returned as given,
 * even if missing, so a typo fails loudly at launch), else the well-known paths
 * (`/usr/bin/chromium`, `chromium-browser`, `google-chrome`, …), else those names on
 * `env.PATH`. The package never reads `process.env` itself: pass it in.
 *
 * @param env - environment to read `SERVICE_BROWSER` and `PATH` from
 * @returns the executable path, or `undefined` when none is found
 * @example
 * const executablePath = detectBrowser(process.env);
 */
export function detectBrowser(
  env: Readonly<Record<string, string | undefined>> = {},
): string | undefined {
  const explicit = env.SERVICE_BROWSER?.trim();
  if (explicit) return explicit;
  for (const path of CANDIDATE_PATHS) if (isExecutable(path)) return path;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of CANDIDATE_NAMES) {
      const path = join(dir, name);
      if (isExecutable(path)) return path;
    }
  }
  return undefined;
}

/**
 * Whether a graphical display is available for a headed browser: always on macOS and
 * Windows; on Linux only when `DISPLAY` or `WAYLAND_DISPLAY` is set (design.md's
 * no-display fallback to headless).
 *
 * @param env - environment to read `DISPLAY` / `WAYLAND_DISPLAY` from
 * @param platform - `process.platform` of the host
 */
export function detectDisplay(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim());
}
