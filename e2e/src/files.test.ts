import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

let panel: RunningPanel;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  panel = await startPanel();
  browser = await launchChromium();
  scratch = mkdtempSync(join(tmpdir(), 'aerie-e2e-files-'));
});
afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** The demo server's directory on the local daemon (the process runtime keeps it under DATA_DIR). */
function serverRoot(): string {
  const volumes = join(panel.dataDir, 'daemon', 'volumes');
  const [uuid] = readdirSync(volumes);
  if (!uuid) throw new Error(`no server directory under ${volumes}`);
  return join(volumes, uuid);
}

/** A file's text, or undefined while it is not there yet. */
const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

const row = (page: Page, name: string) => page.getByTestId('file-row').filter({ hasText: name });

async function rowAction(page: Page, name: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe('file manager', () => {
  it('uploads a file, edits it, archives and unarchives a folder, and downloads a file', async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    onTestFailed(async () => {
      console.log(panel.output());
      await page.screenshot({ path: join(tmpdir(), 'aerie-e2e-files.png') }).catch(() => undefined);
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    // Until the demo install ends, the server area shows the installer and no tabs (a loaded machine takes a while).
    await demoInstalled(page, panel, 90_000);
    await page.getByRole('link', { name: /^Demo Server/ }).click();
    await page
      .getByRole('navigation', { name: 'Server' })
      .getByRole('link', { name: 'File Manager' })
      .click();
    // The demo egg's install wrote the game into the server's root.
    await row(page, 'demo-server.mjs').waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe('Demo Server | File Manager');

    // Upload through the signed URL, straight to the daemon.
    // Two files at once: each signed URL opens the daemon only once.
    const upload = join(scratch, 'notes.txt');
    writeFileSync(upload, 'first line\n');
    const second = join(scratch, 'motd.txt');
    writeFileSync(second, 'welcome\n');
    await page.getByTestId('upload-input').setInputFiles([upload, second]);
    await row(page, 'notes.txt').waitFor();
    await row(page, 'motd.txt').waitFor();
    expect(readFileSync(join(serverRoot(), 'notes.txt'), 'utf8')).toBe('first line\n');
    expect(readFileSync(join(serverRoot(), 'motd.txt'), 'utf8')).toBe('welcome\n');

    // Open it in the editor, type, save with Ctrl-S.
    await page.getByRole('link', { name: 'notes.txt', exact: true }).click();
    await page.waitForURL(/\/files\/edit#/);
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await page.getByText('first line').waitFor();
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('second line');
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => readFileSync(join(serverRoot(), 'notes.txt'), 'utf8'), { timeout: 10_000 })
      .toBe('first line\nsecond line');
    await page.goBack();
    await row(page, 'notes.txt').waitFor();

    // A folder with the file moved in, archived, removed, then brought back from the archive.
    await page.getByRole('button', { name: 'Create Directory' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('world');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await row(page, 'world').waitFor();
    await rowAction(page, 'notes.txt', 'Copy');
    await row(page, 'notes copy.txt').waitFor();
    await rowAction(page, 'notes copy.txt', 'Move');
    await page.getByRole('dialog').getByLabel('File Name').fill('world/level.txt');
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    // Moves are optimistic: the row goes before the daemon has answered.
    await row(page, 'notes copy.txt').waitFor({ state: 'detached' });
    await expect
      .poll(() => readIfThere(join(serverRoot(), 'world', 'level.txt')))
      .toBe('first line\nsecond line');

    await rowAction(page, 'world', 'Archive');
    const archive = row(page, 'archive-');
    await archive.waitFor();
    const archiveName = (await archive.textContent())?.match(/archive-[^\s]+?\.tar\.gz/)?.[0];
    expect(archiveName).toBeDefined();

    await rowAction(page, 'world', 'Delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row(page, 'world').waitFor({ state: 'detached' });
    await expect.poll(() => readdirSync(serverRoot())).not.toContain('world');

    await rowAction(page, archiveName as string, 'Unarchive');
    await row(page, 'world').waitFor();
    await expect
      .poll(() => readIfThere(join(serverRoot(), 'world', 'level.txt')))
      .toBe('first line\nsecond line');

    // Into the folder by its name, back by the breadcrumb.
    await page.getByRole('link', { name: 'world', exact: true }).click();
    await row(page, 'level.txt').waitFor();
    expect(page.url()).toMatch(/\/files#\/world$/);
    await page.getByRole('link', { name: 'container', exact: true }).click();
    await row(page, 'demo-server.mjs').waitFor();

    // Download: the browser follows the signed URL and saves the file.
    const downloading = page.waitForEvent('download');
    await rowAction(page, 'notes.txt', 'Download');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('notes.txt');
    const saved = join(scratch, 'downloaded.txt');
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toBe('first line\nsecond line');
    await page.close();
  });
});
