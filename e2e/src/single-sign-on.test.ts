import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcProviderProcess, startOidcProvider } from '../../apps/panel/test/oidc-provider-process';
import { launchChromium } from './support/browser';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

/**
 * Single sign-on in Chromium against a real OpenID Connect provider (`oidc-provider` in its own process): a root
 * admin adds it in the admin area, a newcomer's first sign-in creates their account, and the admin links their own
 * account from the account page and then signs in through it.
 */
let panel: RunningPanel;
let idp: OidcProviderProcess;
let browser: Browser;
const client = { client_id: 'aerie-e2e', client_secret: 'e2e-client-secret' };

beforeAll(async () => {
  // The provider listens on loopback: the panel may reach it only because this opens it.
  panel = await startPanel({ AERIE_OUTBOUND_ALLOW: '127.0.0.1/32' });
  idp = await startOidcProvider({ ...client, redirect_uris: [`${panel.url}/auth/oauth/corp/callback`] });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
  await panel?.stop();
});

/** The provider's own development sign-in page: any login name is the provider account of that id. */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.href.startsWith(idp.issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
}

describe('single sign-on', () => {
  it('is set up in the admin area, creates a newcomer’s account, and signs in an account linked on its page', async () => {
    await idp.putAccount('newcomer', {
      email: 'newcomer@example.com',
      email_verified: true,
      preferred_username: 'newcomer',
    });
    await idp.putAccount('admin-at-idp', { email: 'boss@corp.example', email_verified: true });
    const context = await browser.newContext();
    const page = await context.newPage();

    // The root admin adds the provider.
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await page.goto(`${panel.url}/admin/oauth-providers/new`);
    await page.getByLabel('Kind').selectOption('oidc');
    await page.getByLabel('Name', { exact: true }).fill('Corp SSO');
    await page.getByLabel('Slug').fill('corp');
    await page.getByLabel('Issuer').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(client.client_id);
    await page.getByLabel('Client secret').fill(client.client_secret);
    await page.getByLabel('Create accounts').check();
    await page.getByRole('button', { name: 'Create Provider' }).click();
    await page.getByText(`${panel.url}/auth/oauth/corp/callback`).first().waitFor();

    // A newcomer, in a browser of their own: the login page's button, the provider, and an account made from the
    // verified email.
    const newcomerContext = await browser.newContext();
    const newcomer = await newcomerContext.newPage();
    await newcomer.goto(`${panel.url}/auth/login`);
    await newcomer.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await signInAtProvider(newcomer, 'newcomer');
    await newcomer.waitForURL(`${panel.url}/`);
    await newcomer.goto(`${panel.url}/account`);
    await newcomer.getByText('newcomer@example.com').first().waitFor();
    await newcomerContext.close();

    // The admin links their account to the provider from the account page, then signs in with it.
    await page.goto(`${panel.url}/account`);
    await page.getByRole('link', { name: 'Link Corp SSO' }).click();
    await signInAtProvider(page, 'admin-at-idp');
    await page.waitForURL(`${panel.url}/account`);
    await page.getByRole('list', { name: 'Your sign-in providers' }).getByText('boss@corp.example').waitFor();
    await page.getByRole('link', { name: 'Logout' }).first().click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.waitForURL(`${panel.url}/`);
    // The admin's own account: the root admin's Admin link, and their link in the providers box.
    await page.getByRole('link', { name: 'Admin' }).first().waitFor();
    await page.goto(`${panel.url}/account`);
    await page.getByRole('list', { name: 'Your sign-in providers' }).getByText('boss@corp.example').waitFor();

    // The account's activity shows the provider sign-in and the link.
    await page.goto(`${panel.url}/account/activity`);
    await page.getByText('Linked Corp SSO sign-in to account').waitFor();
    expect(await page.getByText('Logged in with Corp SSO').count()).toBeGreaterThanOrEqual(1);
    await context.close();
  });
});
