import type { Page } from 'playwright-core';

/** Fills the login page and submits it; the caller waits for wherever the panel should land. */
export async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.getByLabel('Username or Email').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}
