import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

export interface FirstLoadJs {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  /** Each script, largest first (file name, sizes). */
  scripts: { name: string; gzipBytes: number; rawBytes: number }[];
}

/** Debian's Chromium (never a downloaded browser), kept from reaching out to Google's services. */
export function launchBenchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/**
 * Loads a page in Debian's Chromium and adds up every script it fetched before the network went idle:
 * the JavaScript a first visit really costs, lazy route chunks included. Sizes are gzip level 6. With `cookie` (a
 * session from `signIn`) the page is the signed-in one.
 */
export async function measureFirstLoadJs(
  url: string,
  options: { cookie?: string } = {},
): Promise<FirstLoadJs> {
  const browser = await launchBenchChromium();
  try {
    const context = await browser.newContext();
    if (options.cookie) {
      const { origin } = new URL(url);
      await context.addCookies(
        options.cookie.split('; ').map((pair) => {
          const [name = '', ...value] = pair.split('=');
          return { name, value: value.join('='), url: origin };
        }),
      );
    }
    const page = await context.newPage();
    const bodies: Promise<{ url: string; body: Buffer }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        bodies.push(response.body().then((body) => ({ url: response.url(), body })));
      }
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const scripts = await Promise.all(bodies);
    const sized = scripts.map(({ url: script, body }) => ({
      name: new URL(script).pathname.split('/').pop() ?? script,
      gzipBytes: gzipSync(body, { level: 6 }).length,
      rawBytes: body.length,
    }));
    return {
      files: sized.length,
      rawBytes: sized.reduce((n, script) => n + script.rawBytes, 0),
      gzipBytes: sized.reduce((n, script) => n + script.gzipBytes, 0),
      scripts: sized.sort((a, b) => b.gzipBytes - a.gzipBytes),
    };
  } finally {
    await browser.close();
  }
}
