import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type RunningPanel, repoRoot, startPanel } from './support/panel-process';

let panel: RunningPanel;
let browser: Browser;

beforeAll(async () => {
  panel = await startPanel();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

/** The built entry script the shell links to. */
async function entryScript(): Promise<string> {
  const shell = await (await fetch(`${panel.url}/auth/login`)).text();
  const src = /<script type="module" crossorigin src="([^"]+)"/.exec(shell)?.[1];
  if (!src) throw new Error('the login page links no module script');
  return src;
}

describe('compressed delivery of the web build', () => {
  it('sends the build-time brotli or gzip copy of a built asset, as the request asks', async () => {
    const src = await entryScript();
    const raw = readFileSync(join(repoRoot, 'apps/web/dist', src));
    for (const [accept, encoding, decode] of [
      ['br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      // undici's fetch would decode the body itself: ask through node's plain HTTP client instead.
      const response = await rawGet(`${panel.url}${src}`, { 'accept-encoding': accept });
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body.length).toBeLessThan(raw.length / 2);
      expect(decode(response.body).equals(raw)).toBe(true);
    }
    const shell = await rawGet(`${panel.url}/auth/login`, { 'accept-encoding': 'br' });
    // The shell carries the page's CSRF token and user: never kept, so always fresh.
    expect(shell.headers['cache-control']).toBe('no-store');
  });

  it("the login page's JavaScript arrives compressed in Chromium", async () => {
    const page = await browser.newPage();
    const scripts: Promise<{ url: string; encoding?: string; wire: number; decoded: number }>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(
        (async () => {
          const response = await request.response();
          return {
            url: request.url(),
            encoding: (await response?.allHeaders())?.['content-encoding'],
            wire: (await request.sizes()).responseBodySize,
            decoded: (await response?.body())?.length ?? 0,
          };
        })(),
      );
    });
    await page.goto(`${panel.url}/auth/login`, { waitUntil: 'networkidle' });
    const loaded = await Promise.all(scripts);
    expect(loaded.length).toBeGreaterThan(0);
    for (const script of loaded) expect(script.encoding, script.url).toBe('br');
    const wire = loaded.reduce((n, s) => n + s.wire, 0);
    const decoded = loaded.reduce((n, s) => n + s.decoded, 0);
    expect(wire).toBeLessThan(decoded / 3);
    await page.close();
  });
});

async function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return await new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}
