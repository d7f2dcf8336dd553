import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

export interface FirstLoadJs {
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

/**
 * Loads a page in Debian's Chromium and adds up every script it fetched before the network went idle:
 * the JavaScript a first visit really costs, lazy route chunks included. Sizes are gzip level 6.
 */
export async function measureFirstLoadJs(url: string): Promise<FirstLoadJs> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  try {
    const page = await browser.newPage();
    const bodies: Promise<Buffer>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.body());
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const scripts = await Promise.all(bodies);
    return {
      files: scripts.length,
      rawBytes: scripts.reduce((n, b) => n + b.length, 0),
      gzipBytes: scripts.reduce((n, b) => n + gzipSync(b, { level: 6 }).length, 0),
    };
  } finally {
    await browser.close();
  }
}
