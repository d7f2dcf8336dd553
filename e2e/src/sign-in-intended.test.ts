import { tmpdir } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';
import { enableTwoFactor } from './support/two-factor';

/**
 * Issue 24 items 2 and 7 in Chromium: a signed-out deep link survives the login page and the device checkpoint
 * (spec §4 Login: "go to the intended address, else /"), and the API Credentials page it lands on is laid out for a
 * 390 px phone.
 */
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

describe('signing in from a deep link', () => {
  it('goes from a signed-out /account/api through login and the checkpoint back to /account/api', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    onTestFailed(async () => {
      console.log(panel.output());
      await page.screenshot({ path: `${tmpdir()}/aerie-e2e-sign-in-intended.png` }).catch(() => undefined);
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    const [recoveryCode, otherCode] = (await enableTwoFactor(page, panel.url, panel.admin.password))
      .recoveryCodes;
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);

    // The deep link, signed out: the login page remembers it.
    await page.goto(`${panel.url}/account/api`);
    await page.getByRole('heading', { name: 'Login to Continue' }).waitFor();
    const login = new URL(page.url());
    expect(login.pathname).toBe('/auth/login');
    expect(login.searchParams.get('redirect')).toBe('/account/api');

    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByRole('button', { name: "I've Lost My Device" }).click();
    await page.getByLabel('Recovery Code').fill(recoveryCode ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/account/api`);
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();

    // An address on another site is never followed: the sign-in ends on the dashboard.
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await page.goto(`${panel.url}/auth/login?redirect=${encodeURIComponent('//evil.example/')}`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByRole('button', { name: "I've Lost My Device" }).click();
    await page.getByLabel('Recovery Code').fill(otherCode ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // API Credentials on a 390 px phone: no identifier, and the description breaks only between words.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${panel.url}/account/api`);
    await page.getByLabel('Description').fill('Deployment pipeline');
    await page.getByRole('button', { name: 'Create' }).click();
    const created = page.getByRole('dialog', { name: 'Your API Key' });
    await created.getByRole('button', { name: 'Close' }).click();
    await created.waitFor({ state: 'detached' });
    const row = page.getByRole('listitem').filter({ hasText: 'Deployment pipeline' });
    await row.waitFor();
    expect(await row.getByText(/^ptlc_/).isVisible()).toBe(false);
    const description = row.getByText('Deployment pipeline', { exact: true });
    // Each word fits on a line of its own: nothing forces a break inside one.
    const fits = await description.evaluate((element) => {
      const probe = document.createElement('span');
      probe.style.whiteSpace = 'nowrap';
      element.append(probe);
      const widest = Math.max(
        ...(element.firstChild?.textContent ?? '').split(/\s+/).map((word) => {
          probe.textContent = word;
          return probe.getBoundingClientRect().width;
        }),
      );
      probe.remove();
      return { widest, available: element.getBoundingClientRect().width };
    });
    expect(fits.available).toBeGreaterThanOrEqual(fits.widest);
    expect(fits.available).toBeGreaterThan(150);
    await context.close();
  });
});
