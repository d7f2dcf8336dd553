import type { Page } from 'playwright-core';
import { totp } from './totp';

/**
 * Turns two-factor on for the signed-in user on the account page, the way a person does, and hands back the secret
 * (to make codes with `totp`) and the recovery codes shown once.
 */
export async function enableTwoFactor(
  page: Page,
  panelUrl: string,
  password: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto(`${panelUrl}/account`);
  await page.getByRole('button', { name: 'Enable Two-Factor' }).click();
  const setup = page.getByRole('dialog', { name: 'Enable Two-Factor Authentication' });
  const secret = (await setup.getByText(/^[A-Z2-7]{16,}$/).textContent()) ?? '';
  await setup.getByLabel('Authenticator Code').fill(totp(secret));
  await setup.getByLabel('Account Password').fill(password);
  await setup.getByRole('button', { name: 'Enable', exact: true }).click();
  const codes = page.getByRole('dialog', { name: 'Two-Factor Authentication Enabled' });
  await codes.getByText('These codes will not be displayed again.').waitFor();
  const recoveryCodes = await codes.locator('code').allTextContents();
  await codes.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Disable Two-Factor' }).waitFor();
  return { secret, recoveryCodes };
}
