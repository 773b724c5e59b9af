import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';

/** Chromium flags from the platform notes (quiet network, no GPU, root-safe). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
];

/**
 * Launches the system Chromium headless (Playwright never downloads browsers here). HOME and
 * XDG_CONFIG_HOME point at a private temp dir, removed on close, so the crash dumps of the
 * crash test do not pile up under ~/.config/chromium.
 */
export async function launchChromium(): Promise<Browser> {
  const home = mkdtempSync(join(tmpdir(), 'recorder-chromium-home-'));
  const browser = await chromium.launch({
    executablePath: process.env.SERVICE_BROWSER ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
  });
  browser.on('disconnected', () => rmSync(home, { recursive: true, force: true }));
  return browser;
}
