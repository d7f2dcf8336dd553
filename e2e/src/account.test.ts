import { createHmac } from 'node:crypto';
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

/** RFC 4648 base32 (the alphabet TOTP secrets use) to bytes. */
function base32ToBytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value === -1) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The 6-digit code an authenticator app shows now (RFC 6238: HMAC-SHA1, 30 s steps). */
function totp(secret: string, now = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 1000 / 30)));
  const digest = createHmac('sha1', base32ToBytes(secret)).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  // RFC 4226 dynamic truncation: the top bit is masked off before taking the last six digits.
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function signIn(page: Page) {
  await page.getByLabel('Username or Email').fill(panel.admin.username);
  await page.getByLabel('Password', { exact: true }).fill(panel.admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

describe('account area', () => {
  it("computes codes like an authenticator app (RFC 6238's SHA-1 test vectors)", () => {
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totp(rfcSecret, 59_000)).toBe('287082');
    expect(totp(rfcSecret, 1_111_111_109_000)).toBe('081804');
  });

  it('turns on two-factor, signs in with a recovery code, and creates an API key that works as a bearer token', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page);
    await page.waitForURL(`${panel.url}/`);

    // Two-factor: the secret shown in the setup modal feeds our own authenticator.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account Overview' }).waitFor();
    await page.getByRole('button', { name: 'Enable Two-Factor' }).click();
    const setup = page.getByRole('dialog', { name: 'Enable Two-Factor Authentication' });
    const secret = (await setup.getByText(/^[A-Z2-7]{16,}$/).textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await setup.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await setup.getByLabel('Authenticator Code').fill(totp(secret));
    await setup.getByLabel('Account Password').fill(panel.admin.password);
    await setup.getByRole('button', { name: 'Enable', exact: true }).click();

    const codes = page.getByRole('dialog', { name: 'Two-Factor Authentication Enabled' });
    await codes.getByText('These codes will not be displayed again.').waitFor();
    const recoveryCodes = await codes.locator('code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await codes.isVisible()).toBe(true);
    await codes.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Disable Two-Factor' }).waitFor();
    expect(
      await page.getByText('Two-factor authentication is currently enabled on your account.').count(),
    ).toBe(1);

    // Signing in again now goes through the checkpoint; the device is "lost", so a recovery code is used.
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await signIn(page);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByRole('button', { name: "I've Lost My Device" }).click();
    await page.getByLabel('Recovery Code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);

    // An API key, read from the modal that shows it once.
    await page.goto(`${panel.url}/account/api`);
    await page.getByText('No API keys exist for this account.').waitFor();
    await page.getByLabel('Description').fill('End-to-end key');
    await page.getByLabel('Allowed IPs').fill('127.0.0.1');
    await page.getByRole('button', { name: 'Create' }).click();
    const created = page.getByRole('dialog', { name: 'Your API Key' });
    const apiKey = (await created.locator('code').textContent()) ?? '';
    expect(apiKey).toMatch(/^ptlc_[A-Za-z0-9]{43}$/);
    await created.getByRole('button', { name: apiKey }).click();
    await page.getByRole('status').getByText(`Copied "${apiKey}" to clipboard.`).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    await created.getByRole('button', { name: 'Close' }).click();
    await created.waitFor({ state: 'detached' });
    const row = page.getByRole('listitem').filter({ hasText: 'End-to-end key' });
    expect(await row.textContent()).toContain('Last used: Never');

    const headers = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' };
    const account = await fetch(`${panel.url}/api/client/account`, { headers });
    expect(account.status).toBe(200);
    const user = (await account.json()) as {
      object: string;
      attributes: { username: string; email: string };
    };
    expect(user.object).toBe('user');
    expect(user.attributes).toMatchObject({ username: panel.admin.username, email: panel.admin.email });
    const permissions = await fetch(`${panel.url}/api/client/permissions`, { headers });
    expect(permissions.status).toBe(200);
    expect(((await permissions.json()) as { object: string }).object).toBe('system_permissions');
    const wrongKey = await fetch(`${panel.url}/api/client/account`, {
      headers: {
        ...headers,
        Authorization: `Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith('x') ? 'y' : 'x'}`,
      },
    });
    expect(wrongKey.status).toBe(401);

    // The list now tells when the key was last used.
    await page.reload();
    const usedRow = page.getByRole('listitem').filter({ hasText: 'End-to-end key' });
    await usedRow.waitFor();
    expect(await usedRow.textContent()).toMatch(
      /Last used: [A-Z][a-z]{2} \d{1,2}(st|nd|rd|th), \d{4} \d{2}:\d{2}/,
    );

    // Deleting the key through the confirmation ends its use.
    await usedRow.getByRole('button', { name: 'Delete API key End-to-end key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm key deletion' });
    await confirm.getByRole('button', { name: 'Yes, delete key' }).click();
    await page.getByText('No API keys exist for this account.').waitFor();
    expect((await fetch(`${panel.url}/api/client/account`, { headers })).status).toBe(401);
    await context.close();
  });
});
