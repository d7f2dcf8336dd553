import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { freePort } from './support/free-port';
import { type RunningPanel, repoRoot, startPanel } from './support/panel-process';
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

/** A community-style egg export (PTDL_v2): the demo game under another name and uuid, as a file someone shared. */
function communityEgg(): string {
  const egg = JSON.parse(readFileSync(join(repoRoot, 'eggs/aerie-demo.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  return JSON.stringify(
    { ...egg, name: 'Community Chat', uuid: '5a1b7c9d-1e2f-4a3b-8c4d-5e6f7a8b9c0d' },
    null,
    2,
  );
}

async function signedIn(username: string, password: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${panel.url}/auth/login`);
  await signIn(page, username, password);
  await page.waitForURL(`${panel.url}/`);
  return page;
}

describe('the admin area', () => {
  it('runs a small hosting set-up from the browser alone', { timeout: 180_000 }, async () => {
    const admin = await signedIn(panel.admin.username, panel.admin.password);
    await admin.getByRole('link', { name: 'Admin' }).click();
    await admin.getByRole('heading', { name: 'Overview' }).waitFor();
    const menu = admin.getByRole('navigation', { name: 'Administration' });

    // A location, and a second node in it (its daemon is started later, from the configuration it shows).
    await menu.getByRole('link', { name: 'Locations' }).click();
    await admin.getByRole('button', { name: 'Create Location' }).click();
    const locationDialog = admin.getByRole('dialog');
    await locationDialog.getByLabel('Short Code').fill('eu.ams');
    await locationDialog.getByLabel('Description').fill('Amsterdam');
    await locationDialog.getByRole('button', { name: 'Create' }).click();
    await admin.getByText('The location eu.ams was created.').waitFor();
    await menu.getByRole('link', { name: 'Nodes' }).click();
    await admin.getByRole('button', { name: 'Create Node' }).click();
    const nodeDialog = admin.getByRole('dialog');
    await nodeDialog.getByLabel('Name', { exact: true }).fill('Amsterdam 1');
    await nodeDialog.getByLabel('Location', { exact: true }).selectOption({ label: 'eu.ams (Amsterdam)' });
    await nodeDialog.getByLabel('FQDN').fill('ams1.example.com');
    await nodeDialog.getByLabel('Total Memory (MiB)').fill('16384');
    await nodeDialog.getByLabel('Total Disk Space (MiB)').fill('102400');
    await nodeDialog.getByRole('button', { name: 'Create Node' }).click();
    await admin.waitForURL(/\/admin\/nodes\/view\/\d+\/configuration$/);
    await admin.getByText('The node was created. Start its daemon with the configuration below.').waitFor();

    // An egg, imported by pasting its file into a nest.
    await menu.getByRole('link', { name: 'Nests' }).click();
    await admin.getByRole('heading', { name: 'Nests' }).waitFor();
    await admin.locator('main table a').first().click();
    await admin.getByRole('button', { name: 'Import' }).click();
    const importDialog = admin.getByRole('dialog');
    await importDialog.getByLabel('Or paste the file').fill(communityEgg());
    await importDialog.getByRole('button', { name: 'Import' }).click();
    await importDialog.waitFor({ state: 'detached' });
    await admin.getByText('Community Chat').first().waitFor();

    // A customer.
    await menu.getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('heading', { name: 'Users' }).waitFor();
    await admin.getByRole('button', { name: 'Create User' }).click();
    const userDialog = admin.getByRole('dialog');
    await userDialog.getByLabel('Email').fill('customer@example.com');
    await userDialog.getByLabel('Username').fill('customer');
    await userDialog.getByLabel('First Name').fill('Casey');
    await userDialog.getByLabel('Last Name').fill('Customer');
    await userDialog.getByLabel('Password').fill('customer password 1');
    await userDialog.getByRole('button', { name: 'Create User' }).click();
    await userDialog.waitFor({ state: 'detached' });
    await admin.getByText('customer@example.com').first().waitFor();

    // A port range on the local node.
    const first = await freePort();
    await menu.getByRole('link', { name: 'Nodes' }).click();
    await admin.getByRole('link', { name: 'Local node' }).click();
    await admin.getByRole('link', { name: 'Allocations' }).click();
    await admin.getByLabel('IP Address').fill('127.0.0.1');
    await admin.getByLabel('Ports').fill(`${first}-${first + 2}`);
    await admin.getByRole('button', { name: 'Add', exact: true }).click();
    await admin.getByText('The allocations were added.').waitFor();

    // The server, for the customer, from the imported egg, on the first port of that range.
    await menu.getByRole('link', { name: 'Servers' }).click();
    await admin.getByRole('link', { name: 'Create Server' }).click();
    await admin.getByLabel('Server name').fill('Customer Chat');
    await admin.getByLabel('Owner', { exact: true }).fill('customer');
    await admin.getByRole('button', { name: /customer@example\.com/ }).click();
    await admin.getByLabel('Node', { exact: true }).selectOption({ label: 'Local node' });
    await admin.getByLabel('Primary allocation').selectOption({ label: `127.0.0.1:${first}` });
    const eggOption = await admin
      .getByLabel('Egg')
      .locator('option', { hasText: 'Community Chat' })
      .textContent();
    await admin.getByLabel('Egg', { exact: true }).selectOption({ label: eggOption ?? '' });
    await admin.getByLabel('Memory (MiB)').fill('256');
    await admin.getByRole('button', { name: 'Create Server' }).click();
    await admin.waitForURL(/\/admin\/servers\/view\/\d+$/);
    await admin.getByRole('heading', { name: 'Customer Chat' }).waitFor();

    // The customer sees it on their dashboard.
    const customer = await signedIn('customer', 'customer password 1');
    const card = customer.getByRole('link', { name: /^Customer Chat/ });
    await card.waitFor();
    expect(await card.textContent()).toContain(`127.0.0.1:${first}`);
    const serverUrl = `${panel.url}${await card.getAttribute('href')}`;

    // The admin changes its limits.
    await admin.getByRole('link', { name: 'Build' }).click();
    await admin.getByLabel('Memory (MiB)').fill('512');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Saved.').waitFor();

    // Suspended by the admin: the customer's server area shows the blocked view.
    await admin.getByRole('link', { name: 'Manage' }).click();
    await admin.getByRole('button', { name: 'Suspend', exact: true }).click();
    await admin.getByText('The server is suspended.').waitFor();
    await customer.goto(serverUrl);
    onTestFailed(async () => {
      console.log(panel.output());
      console.log(
        'customer page:',
        await customer
          .locator('body')
          .innerText()
          .catch(() => '?'),
      );
      await customer
        .screenshot({ path: join(tmpdir(), 'aerie-e2e-admin-customer.png') })
        .catch(() => undefined);
    });
    await customer.getByText('Server Suspended').waitFor();
    await customer.getByText('This server is suspended and cannot be accessed.').waitFor();

    // Deleted: gone from the admin list and from the customer's dashboard.
    await admin.getByRole('button', { name: 'Delete', exact: true }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await admin.waitForURL(`${panel.url}/admin/servers`);
    await admin.getByText('The server was deleted.').waitFor();
    await customer.goto(`${panel.url}/`);
    await customer.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(() => customer.getByRole('link', { name: /^Customer Chat/ }).count()).toBe(0);
  });
});
