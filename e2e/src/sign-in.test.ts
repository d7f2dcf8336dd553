import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type RunningPanel, startPanel } from './support/panel-process';

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

async function signIn(page: Page, user: string, password: string) {
  await page.getByLabel('Username or Email').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function waitForMail(outbox: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const name = existsSync(outbox) ? readdirSync(outbox).find((n) => n.endsWith('.eml')) : undefined;
    if (name) return join(outbox, name);
    if (Date.now() > deadline) throw new Error(`no message in ${outbox} after 10 s:\n${panel.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('signing in and out', () => {
  it('sends a visitor to the login page, signs the admin in, shows the shell, and signs out', async () => {
    const page = await browser.newPage();
    await page.goto(panel.url);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await page.getByText('Login to Continue').waitFor();

    await signIn(page, panel.admin.username, 'wrong password');
    await page
      .getByRole('alert')
      .getByText('No account matching those credentials could be found.')
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');

    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await page.getByRole('link', { name: 'Dashboard' }).waitFor();
    // Root admins get the admin link; the footer carries the copyright span.
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(1);
    expect(await page.getByText(`2015 - ${new Date().getFullYear()}`).count()).toBeGreaterThan(0);
    expect(await page.title()).toContain('Dashboard');

    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await page.goto(`${panel.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await page.close();
  });

  it('resets a forgotten password through the link the mail outbox wrote', async () => {
    const page = await browser.newPage();
    await page.goto(`${panel.url}/auth/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByText('Request Password Reset').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(panel.admin.email);
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByRole('alert').getByText('We have e-mailed your password reset link!').waitFor();

    // The panel answers before it sends, so the answer never tells whether the account exists.
    const message = await waitForMail(join(panel.dataDir, 'mail'));
    const mail = readFileSync(message, 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const link = mail.match(/https?:\/\/[^\s"<>]+\/auth\/password\/reset\/[^\s"<>]+/)?.[0];
    expect(link).toBeDefined();

    await page.goto(link as string);
    await page.getByText('Reset Password').first().waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(panel.admin.email);
    await page.getByLabel('New Password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Confirm New Password').fill('a brand new password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL(`${panel.url}/`);
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);

    await signIn(page, panel.admin.email, 'a brand new password');
    await page.waitForURL(`${panel.url}/`);
    await page.getByRole('link', { name: 'Dashboard' }).waitFor();
    await page.close();
  });
});
