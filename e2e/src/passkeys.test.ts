import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';
import { totp } from './support/totp';
import { enableTwoFactor } from './support/two-factor';

let panel: RunningPanel;
let browser: Browser;

// Browsers refuse an IP address as a passkey's site: this panel is reached as localhost.
beforeAll(async () => {
  panel = await startPanel({}, 'localhost');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

/**
 * Chromium's virtual authenticator (the DevTools WebAuthn domain): a platform authenticator that holds
 * discoverable credentials and verifies its user, answering every ceremony of this page at once.
 */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function logout(page: Page) {
  await page.getByRole('link', { name: 'Logout' }).click();
  await page.waitForURL(`${panel.url}/auth/login`);
}

describe('passkeys', () => {
  it('registers a passkey, signs in with it alone and as the second factor, and stops working once removed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);

    // Register, on the account page.
    await page.goto(`${panel.url}/account`);
    await page.getByText('No passkeys exist for this account.').waitFor();
    await page.getByLabel('Passkey Name').fill('This laptop');
    await page.getByLabel('Current Password').last().fill(panel.admin.password);
    await page.getByRole('button', { name: 'Add Passkey' }).click();
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await list.getByText('This laptop').waitFor();
    expect(await list.getByText('Never used').count()).toBe(1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);

    // Sign in without a password.
    await logout(page);
    await page.getByRole('button', { name: 'Sign In with a Passkey' }).click();
    await page.waitForURL(`${panel.url}/`);
    await page.goto(`${panel.url}/account`);
    await list.getByText(/Last used:/).waitFor();

    // Two-factor on: the passkey answers the checkpoint in place of the code.
    const { secret } = await enableTwoFactor(page, panel.url, panel.admin.password);
    await logout(page);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByRole('button', { name: 'Use a Passkey' }).click();
    await page.waitForURL(`${panel.url}/`);

    // Remove it: the authenticator still holds the credential, the panel no longer accepts it.
    await page.goto(`${panel.url}/account`);
    await page.getByRole('button', { name: 'Remove passkey This laptop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Passkey' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No passkeys exist for this account.').waitFor();
    await logout(page);
    await page.getByRole('button', { name: 'Sign In with a Passkey' }).click();
    await page.getByRole('alert').getByText('This passkey is not registered with this panel.').waitFor();
    expect(page.url()).toBe(`${panel.url}/auth/login`);

    // The account's activity shows each step.
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByLabel('Authentication Code').fill(totp(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);
    await page.goto(`${panel.url}/account/activity`);
    await page.getByText('Removed passkey This laptop').waitFor();
    expect(await page.getByText('Signed in with a passkey').count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByText('Added passkey This laptop').count()).toBe(1);
    await context.close();
  });
});
