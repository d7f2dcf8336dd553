import { type Browser, chromium } from 'playwright-core';

/**
 * Launches Debian's Chromium (never a downloaded browser). The flags keep it from reaching out to
 * Google's services, which this machine's closed network refuses. Playwright gives each launch a fresh profile.
 */
export async function launchChromium(): Promise<Browser> {
  return await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
