import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
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

describe('servers', () => {
  it('lists the demo server on the dashboard, finds it with the search and opens its area', async () => {
    const page = await browser.newPage();
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    // An installing server has no usage yet, and its card asks again only every 30 s: start from an installed one.
    await demoInstalled(page, panel);
    await page.reload();

    // `aerie up` gave the first admin one demo server on the local node.
    const card = page.getByRole('link', { name: /^Demo Server/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('A tiny chat game to try the panel with.');
    expect(await card.textContent()).toMatch(/\d+\.\d+\.\d+\.\d+:\d+/);
    const href = await card.getAttribute('href');
    expect(href).toMatch(/^\/server\/[0-9a-f]{8}$/);
    // Usage comes from the supervised daemon through the panel: figures against the demo server's limits.
    await card.getByText('of 100 %').waitFor();
    expect(await card.textContent()).toMatch(/CPU\d+\.\d{2} %of 100 %Memory.+of 512 MBDisk.+of 1 GB$/);
    expect(await page.title()).toBe('Dashboard | Aerie');

    await page.getByRole('button', { name: 'Search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await dialog.getByLabel('Search term').fill('de');
    await dialog.getByLabel('Search term').blur();
    await dialog.getByText('Please enter at least three characters to begin searching.').waitFor();
    await dialog.getByLabel('Search term').fill('demo');
    const result = dialog.getByRole('link', { name: /Demo Server/ });
    await result.waitFor();
    expect(await result.getAttribute('href')).toBe(href);
    await result.click();

    await page.waitForURL(`${panel.url}${href}`);
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Console' }).waitFor();
    expect(await page.title()).toBe('Demo Server | Console');
    const tabs = page.getByRole('navigation', { name: 'Server' });
    for (const tab of [
      'Console',
      'File Manager',
      'Databases',
      'Schedules',
      'Users',
      'Backups',
      'Network',
      'Startup',
      'Settings',
    ])
      expect(await tabs.getByRole('link', { name: tab, exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Admin View' }).getAttribute('href')).toMatch(
      /^\/admin\/servers\/view\/\d+$/,
    );

    await tabs.getByRole('link', { name: 'Backups', exact: true }).click();
    await page.getByRole('heading', { name: 'Backups' }).waitFor();
    expect(await page.title()).toBe('Demo Server | Backups');

    // A server that is not there fills the page with the panel's message.
    await page.goto(`${panel.url}/server/ffffffff`);
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    await page.close();
  });
});
