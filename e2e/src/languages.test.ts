import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { type RunningPanel, repoRoot, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

/** The languages a user reads the panel in: their own, switched on the account page, or their browser's as a guest. */
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

type Tree = { [key: string]: string | Tree };
const locale = (language: string, namespace: string): Tree =>
  JSON.parse(readFileSync(join(repoRoot, 'apps/web/public/locales', language, `${namespace}.json`), 'utf8'));
const text = (tree: Tree, path: string): string => {
  const found = path
    .split('.')
    .reduce<string | Tree | undefined>(
      (node, key) => (typeof node === 'object' ? node[key] : undefined),
      tree,
    );
  if (typeof found !== 'string') throw new Error(`no text at ${path}`);
  return found;
};
const flat = (tree: Tree): string[] =>
  Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : flat(value)));

/**
 * English texts of the app that read differently in `language`, long enough to be sentences or labels of their own
 * rather than words data may contain: none of them may be on a page shown in that language.
 */
function englishOnly(language: string): string[] {
  const namespaces = ['strings', 'dashboard', 'account', 'server', 'admin'];
  const translated = new Set(namespaces.flatMap((namespace) => flat(locale(language, namespace))));
  return namespaces
    .flatMap((namespace) => flat(locale('en', namespace)))
    .filter((english) => !translated.has(english) && !english.includes('{{') && english.length >= 12);
}

async function englishOn(page: Page, texts: string[]): Promise<string[]> {
  const shown = await page.evaluate(() => {
    for (const hidden of document.querySelectorAll('.xterm, [data-testid="code-editor"]')) hidden.remove();
    return document.body.innerText;
  });
  return texts.filter((english) => shown.includes(english));
}

async function signedIn(context = browser): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${panel.url}/auth/login`);
  await signIn(page, panel.admin.username, panel.admin.password);
  await page.waitForURL(`${panel.url}/`);
  return page;
}

async function chooseLanguage(page: Page, name: string): Promise<void> {
  await page.goto(`${panel.url}/account`);
  await page
    .locator('select')
    .filter({ has: page.locator(`option:text-is("${name}")`) })
    .selectOption({ label: name });
}

describe('languages', () => {
  it('shows a German user the dashboard, console, files and admin area in German, with no English text of the app', {
    timeout: 180_000,
  }, async () => {
    const page = await signedIn();
    await demoInstalled(page, panel);
    const english = englishOnly('de');
    await chooseLanguage(page, 'Deutsch');
    // The account page switches at once, without a reload.
    await page.getByRole('heading', { name: text(locale('de', 'account'), 'overview.title') }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'de',
      'ltr',
    ]);

    // The language is the account's: the next page load (the shell's user) opens in German.
    await page.goto(`${panel.url}/`);
    await page.getByText('Demo Server').first().waitFor();
    expect(await englishOn(page, english)).toEqual([]);

    await page.getByText('Demo Server').first().click();
    await page.getByTestId('console-terminal').waitFor();
    await page
      .getByRole('button', { name: text(locale('de', 'server'), 'console.power.start'), exact: true })
      .first()
      .waitFor();
    expect(await englishOn(page, english)).toEqual([]);

    await page.goto(`${page.url().replace(/\/$/, '')}/files`);
    await page
      .getByText('server.properties', { exact: false })
      .first()
      .waitFor()
      .catch(() => {});
    await page.waitForLoadState('networkidle');
    expect(await englishOn(page, english)).toEqual([]);

    await page.goto(`${panel.url}/admin/servers`);
    await page.getByRole('heading', { name: text(locale('de', 'admin'), 'servers.title') }).waitFor();
    expect(await englishOn(page, english)).toEqual([]);
    // Sizes and numbers as German writes them.
    await page.goto(`${panel.url}/admin/nodes`);
    await page.getByRole('heading', { name: text(locale('de', 'admin'), 'nodes.title') }).waitFor();
    const sizes = async () => {
      const shown = await page.evaluate(() => document.body.innerText);
      return {
        shown: /\d\s(?:Byte|kB|MB|GB|TB)\b/.test(shown),
        englishDecimals: /\d\.\d+\s?(?:kB|MB|GB|TB)\b/.test(shown),
      };
    };
    await expect.poll(sizes).toEqual({ shown: true, englishDecimals: false });
    await page.close();
  });

  it('lays Arabic out right to left, with the console still left to right', {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn();
    await chooseLanguage(page, 'العربية');
    await page.getByRole('heading', { name: text(locale('ar', 'account'), 'overview.title') }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    await page.goto(`${panel.url}/`);
    await page.getByText('Demo Server').first().click();
    const terminal = page.getByTestId('console-terminal');
    await terminal.waitFor();
    const layout = await page.evaluate(() => {
      const terminal = document.querySelector('[data-testid="console-terminal"]') as HTMLElement;
      const brand = document.querySelector('header a') as HTMLElement;
      return {
        terminal: getComputedStyle(terminal).direction,
        page: getComputedStyle(document.body).direction,
        // The navigation bar starts on the right: its first link (the panel's name) sits in the right half.
        brandOnRight: brand.getBoundingClientRect().left > window.innerWidth / 2,
      };
    });
    expect(layout).toEqual({ terminal: 'ltr', page: 'rtl', brandOnRight: true });
    await chooseLanguage(page, 'English');
    await page.getByRole('heading', { name: 'Account Overview' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    await page.close();
  });

  it('gives a guest whose browser prefers French the French sign-in page', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${panel.url}/auth/login`);
    await page.getByRole('heading', { name: text(locale('fr', 'auth'), 'login.title') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await context.close();
  });

  it("counts the admin's servers in Polish, with the form Polish uses for 1", async () => {
    const page = await signedIn();
    await chooseLanguage(page, 'Polski');
    await page.goto(`${panel.url}/admin/servers`);
    // One demo server; the forms for 2 and 5 are checked in the web tests (lib/plurals.test.ts).
    await page
      .getByText(text(locale('pl', 'admin'), 'servers.total_one').replace('{{count}}', '1'))
      .waitFor();
    await chooseLanguage(page, 'English');
    await page.close();
  });
});
