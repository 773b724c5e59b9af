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

/** Launches the system Chromium headless (Playwright never downloads browsers here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.SERVICE_BROWSER ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}
