import { gzipSync } from 'node:zlib';
import { launchBenchChromium } from './first-load-js';

export interface TranslationLoad {
  language: string;
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

/**
 * The translation files a guest's first visit to `url` fetches, with the browser preferring `locale`: which files
 * (one language only, its page's namespaces) and their size (gzip level 6, as first-load-js counts scripts).
 */
export async function measureTranslationLoad(url: string, locale: string): Promise<TranslationLoad> {
  const browser = await launchBenchChromium();
  try {
    const page = await (await browser.newContext({ locale })).newPage();
    const bodies: Promise<{ url: string; body: Buffer }>[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/locales/')) {
        bodies.push(response.body().then((body) => ({ url: response.url(), body })));
      }
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const files = await Promise.all(bodies);
    return {
      language: await page.evaluate(() => document.documentElement.lang),
      files: files.map((file) => new URL(file.url).pathname).sort(),
      rawBytes: files.reduce((n, file) => n + file.body.length, 0),
      gzipBytes: files.reduce((n, file) => n + gzipSync(file.body, { level: 6 }).length, 0),
    };
  } finally {
    await browser.close();
  }
}

/** English first, as the baseline of the same run, then each other language as a ratio of it. */
export function formatTranslationLoads(loads: TranslationLoad[]): string[] {
  const english = loads.find((load) => load.language === 'en');
  return loads.map((load) => {
    const ratio = english && english.gzipBytes > 0 ? (load.gzipBytes / english.gzipBytes).toFixed(2) : 'n/a';
    return `sign-in translations ${load.language}: ${load.files.length} files (${load.files.map((file) => file.split('/').slice(-2).join('/')).join(', ')}), ${load.rawBytes} B raw, ${load.gzipBytes} B gzip, ${ratio}× English`;
  });
}
