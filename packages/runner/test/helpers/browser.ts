// One headless Chromium per test file, with the flags from platform-notes.
import { chromium, type Browser } from 'playwright';

/** Launch arguments every test browser uses. */
export const TEST_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
];

/** Launches /usr/bin/chromium headless (never downloads a browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.SERVICE_BROWSER ?? '/usr/bin/chromium',
    headless: true,
    args: TEST_ARGS,
  });
}
