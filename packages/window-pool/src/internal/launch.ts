import { randomUUID } from 'node:crypto';
import type { LaunchOptions } from 'playwright';

/**
 * Flags a server-side Chromium needs (platform-notes "Chromium flags"): without them it
 * keeps calling the network (component updates, sync, QUIC) and a GPU it does not have.
 * Never a `--disable-features=`: Chromium keeps only the last one and Playwright passes its own.
 */
export const SERVER_CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
  '--no-default-browser-check',
] as const;

/** Settings shared by every local launch. */
export interface LocalLaunchSettings {
  executablePath: string;
  headless: boolean;
  sandbox: boolean;
  extraArgs: readonly string[];
  /** Environment of the browser process (XDG dirs point into the pool's scratch dir). */
  env: Record<string, string>;
  timeoutMs: number;
}

/** A unique switch added to each launch so its pid can be found by walking /proc. */
export function newMarker(): string {
  return `--browsertask-window-pool=${randomUUID()}`;
}

/** Removes user `--disable-features=` switches (they would override Playwright's list). */
function safeExtraArgs(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('--disable-features='));
}

/** Playwright launch options for a local Chromium (never downloads a browser). */
export function launchOptions(settings: LocalLaunchSettings, marker: string): LaunchOptions {
  return {
    executablePath: settings.executablePath,
    headless: settings.headless,
    // Playwright adds --no-sandbox unless chromiumSandbox is true; root cannot sandbox.
    chromiumSandbox: settings.sandbox,
    args: [...SERVER_CHROMIUM_ARGS, ...safeExtraArgs(settings.extraArgs), marker],
    env: settings.env,
    timeout: settings.timeoutMs,
    // The service owns shutdown (drain, then close()); Playwright's SIGTERM handler would
    // close browsers under running tasks and keep the process alive. The pipe transport
    // still makes Chromium exit if this process dies.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}

/** Whether a launch error means "no display for a headed browser". */
export function isNoDisplayError(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /Missing X server|\$DISPLAY|cannot open display|Ozone platform/i.test(msg);
}
