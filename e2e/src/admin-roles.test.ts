import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

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

async function signedIn(username: string, password: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${panel.url}/auth/login`);
  await signIn(page, username, password);
  await page.waitForURL(`${panel.url}/`);
  return page;
}

describe('an admin role', () => {
  it('lets a support user read and suspend servers only, until the role is taken away', {
    timeout: 180_000,
  }, async () => {
    const root = await signedIn(panel.admin.username, panel.admin.password);
    onTestFailed(() => console.log(panel.output()));
    await root.getByRole('link', { name: 'Admin' }).click();
    const rootMenu = root.getByRole('navigation', { name: 'Administration' });
    /** On the helper's page in the admin area, the root admin picks their role (or None) and saves it. */
    const giveHelperRole = async (label: string) => {
      await rootMenu.getByRole('link', { name: 'Users' }).click();
      await root
        .getByRole('link', { name: 'helper@example.com' })
        .or(root.getByRole('link', { name: 'helper' }))
        .first()
        .click();
      await root.getByLabel('Role', { exact: true }).selectOption({ label });
      await root.getByRole('button', { name: 'Save Role' }).click();
      await root.getByText('The role was saved.').waitFor();
    };

    // The helper's account, and a Support role: servers read and write, users read.
    await rootMenu.getByRole('link', { name: 'Users' }).click();
    await root.getByRole('button', { name: 'Create User' }).click();
    const userDialog = root.getByRole('dialog');
    await userDialog.getByLabel('Email').fill('helper@example.com');
    await userDialog.getByLabel('Username').fill('helper');
    await userDialog.getByLabel('First Name').fill('Harper');
    await userDialog.getByLabel('Last Name').fill('Helper');
    await userDialog.getByLabel('Password').fill('helper password 1');
    await userDialog.getByRole('button', { name: 'Create User' }).click();
    await userDialog.waitFor({ state: 'detached' });

    await rootMenu.getByRole('link', { name: 'Roles' }).click();
    await root
      .getByRole('link', { name: 'Create Role' })
      .or(root.getByRole('button', { name: 'Create Role' }))
      .click();
    await root.getByLabel('Name').fill('Support');
    await root.getByRole('checkbox', { name: 'Read: Servers' }).check();
    await root.getByRole('checkbox', { name: 'Write: Servers' }).check();
    await root.getByRole('checkbox', { name: 'Read: Users' }).check();
    await root.getByRole('button', { name: 'Create Role' }).click();
    await root.getByText('The role was created.').waitFor();

    await giveHelperRole('Support');

    // The helper sees only what the role reads, and suspends the demo server.
    const helper = await signedIn('helper', 'helper password 1');
    onTestFailed(async () => {
      console.log(
        'helper page:',
        helper.url(),
        await helper
          .locator('body')
          .innerText()
          .catch(() => '?'),
      );
      console.log(
        'root page:',
        root.url(),
        await root
          .locator('body')
          .innerText()
          .catch(() => '?'),
      );
    });
    await helper.getByRole('link', { name: 'Admin' }).click();
    const menu = helper.getByRole('navigation', { name: 'Administration' });
    await menu.getByRole('link', { name: 'Servers' }).waitFor();
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Application API', 'Servers', 'Users']);
    await menu.getByRole('link', { name: 'Servers' }).click();
    await helper.getByRole('link', { name: 'Demo Server' }).click();
    await helper.getByRole('link', { name: 'Manage' }).click();
    await helper.getByRole('button', { name: 'Suspend', exact: true }).click();
    await helper.getByText('The server is suspended.').waitFor();
    await helper.getByRole('button', { name: 'Unsuspend', exact: true }).click();
    await helper
      .getByText('The server is no longer suspended.')
      .or(helper.getByRole('button', { name: 'Suspend', exact: true }))
      .first()
      .waitFor();

    // The root admin reads both changes in the audit log, made by the helper.
    await rootMenu.getByRole('link', { name: 'Audit Log' }).click();
    await root.getByLabel('Actor').fill('helper');
    const rows = root.locator('main table tbody tr');
    await expect.poll(() => rows.filter({ hasText: 'Server suspended' }).count()).toBe(1);
    await expect.poll(() => rows.filter({ hasText: 'Server unsuspended' }).count()).toBe(1);

    // Taken away: the helper's next click in the admin area is refused.
    await giveHelperRole('None');
    await menu.getByRole('link', { name: 'Users' }).click();
    await helper.getByText('This account does not have permission to access the API.').waitFor();
  });
});
