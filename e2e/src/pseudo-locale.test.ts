import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { type RunningPanel, startPanel } from './support/panel-process';
import { pseudoWebDist } from './support/pseudo-locale';

/**
 * Every text the browser shows comes from the translation files: with English pseudo-translated (every text marked
 * ⟦…⟧ and its letters accented), a crawl of every page the admin can reach, and of every dialog its buttons open,
 * finds no English word outside the marks other than data (what the API answered), the spec's English date and size
 * formats (English keeps them; other languages get their own), and each language's own name in the picker.
 */
let panel: RunningPanel;
let browser: Browser;
let web: ReturnType<typeof pseudoWebDist>;

beforeAll(async () => {
  web = pseudoWebDist();
  panel = await startPanel({ WEB_DIST: web.dir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  web?.remove();
});

/** What the spec's English formats write (dates, relative times, sizes): kept for English by design. */
const ENGLISH_FORMATS = new Set(
  [
    'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec',
    'less than about over almost ago second seconds minute minutes hour hours day days month months year years',
    'Bytes',
    // A file's full modification time (its tooltip), as JavaScript writes it.
    'Mon Tue Wed Thu Fri Sat Sun GMT Coordinated Universal Time',
    // The pull-from-URL field's example.
    'https',
    'English Deutsch Français Español Português Brasil Polski',
  ]
    .join(' ')
    .split(' ')
    .map((word) => word.toLowerCase()),
);

/** The words of every text and labelling attribute on the page that no ⟦…⟧ mark covers, with where they were. */
async function unmarkedWords(page: Page): Promise<{ word: string; text: string }[]> {
  return page.evaluate(() => {
    // Game output (the console and its spoken log), file contents, code, text in another language (the language
    // picker's own names) and what HTML marks translate="no" (paths, permission keys) are not the app's words.
    const skipped = (element: Element | null) =>
      !element ||
      element.closest(
        'script, style, noscript, pre, code, [translate="no"], [lang]:not(html), [role="log"], .xterm, [data-testid="console-terminal"], [data-testid="code-editor"]',
      ) !== null;
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!skipped(node.parentElement) && node.textContent?.trim()) texts.push(node.textContent);
    }
    for (const element of document.body.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
      if (skipped(element)) continue;
      for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = element.getAttribute(name);
        if (value?.trim()) texts.push(value);
      }
    }
    texts.push(document.title);
    const found: { word: string; text: string }[] = [];
    for (const text of texts) {
      let rest = text;
      // Marks nest when a translated text is placed inside another; strip the innermost first.
      for (let before = ''; before !== rest; ) {
        before = rest;
        rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
      }
      // Whole words only ("Español" is not "Espa"), and only those written in plain Latin letters.
      for (const word of rest.match(/\p{L}+/gu) ?? []) {
        if (/^[A-Za-z]{3,}$/.test(word)) found.push({ word, text: text.slice(0, 120) });
      }
    }
    return found;
  });
}

/** Every string value of a JSON answer: the data a page shows (names, addresses, images, variables...). */
function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    for (const word of value.match(/[A-Za-z]{3,}/g) ?? []) into.add(word.toLowerCase());
  } else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, into);
}

describe('a pseudo-translated panel', () => {
  it('shows no text outside the translation files on any page or dialog', { timeout: 600_000 }, async () => {
    const page = await browser.newPage();
    const data = new Set<string>(['aerie', 'admin']);
    // Answers are read as they come; the words found are judged at the end, once every answer has been read.
    const reading: Promise<void>[] = [];
    page.on('response', (response) => {
      if (!response.url().includes('/api/') || !(response.headers()['content-type'] ?? '').includes('json'))
        return;
      reading.push(
        response
          .json()
          .catch(() => null)
          .then((body) => collectStrings(body, data)),
      );
    });
    await page.goto(`${panel.url}/auth/login`);
    // The sign-in page itself; its labels are pseudo text, so the form is filled by its inputs.
    await page.locator('input[type="password"]').waitFor();
    const signInPage = await unmarkedWords(page);
    await page.locator('form input:not([type="password"])').first().fill(panel.admin.username);
    await page.locator('input[type="password"]').fill(panel.admin.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`${panel.url}/`);
    await demoInstalled(page, panel, 120_000);

    const found: { where: string; word: string; text: string }[] = [];
    const note = (where: string, words: { word: string; text: string }[]) => {
      for (const word of words) found.push({ where, ...word });
    };

    note('/auth/login', signInPage);
    const queue = [`${panel.url}/`];
    const seen = new Set<string>();
    while (queue.length > 0 && seen.size < 120) {
      const url = queue.shift() as string;
      if (seen.has(url)) continue;
      seen.add(url);
      await page.goto(url);
      await page.waitForLoadState('networkidle').catch(() => {});
      await page.waitForTimeout(300);
      const where = url.replace(panel.url, '');
      note(where, await unmarkedWords(page));
      for (const href of await page.$$eval('a[href]', (links) =>
        links.map((link) => (link as HTMLAnchorElement).href),
      )) {
        const clean = href.split('#')[0] as string;
        if (
          clean.startsWith(panel.url) &&
          !/\/auth\/logout|\/download|\/api\//.test(clean) &&
          !seen.has(clean)
        ) {
          queue.push(clean);
        }
      }
      // Each button that opens a dialog: its dialog, then closed again. Power buttons, the navigation and submit
      // buttons act rather than ask, and are left alone.
      const buttons = page.locator(
        'main button:not([type="submit"]):not(fieldset[aria-label] button):not([disabled])',
      );
      const count = Math.min(await buttons.count(), 25);
      for (let index = 0; index < count; index++) {
        const button = buttons.nth(index);
        if (!(await button.isVisible().catch(() => false))) continue;
        await button.click({ timeout: 2000 }).catch(() => {});
        const dialog = page.getByRole('dialog');
        if (
          await dialog
            .first()
            .isVisible({ timeout: 700 })
            .catch(() => false)
        ) {
          note(`${where} (dialog)`, await unmarkedWords(page));
          await page.keyboard.press('Escape');
          await dialog
            .first()
            .waitFor({ state: 'hidden', timeout: 2000 })
            .catch(() => {});
        }
        if (page.url().split('#')[0] !== url) {
          await page.goto(url);
          await page.waitForLoadState('networkidle').catch(() => {});
        }
      }
    }
    expect(seen.size).toBeGreaterThan(25);
    await Promise.all(reading);
    const leftovers = new Map<string, string>();
    for (const { where, word, text } of found) {
      if (data.has(word.toLowerCase()) || ENGLISH_FORMATS.has(word.toLowerCase())) continue;
      leftovers.set(`${where}: "${word}"`, text);
    }
    expect(Object.fromEntries(leftovers)).toEqual({});
  });
});
