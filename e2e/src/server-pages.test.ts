import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { freePort } from './support/free-port';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

let panel: RunningPanel;
let browser: Browser;
let firstPort: number;

beforeAll(async () => {
  // Four ports of our own for the local node (and so for Create Allocation), away from other tests' demo servers.
  firstPort = await freePort();
  panel = await startPanel({ DEMO_PORT_RANGE: `${firstPort}-${firstPort + 3}` });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

async function waitForTerminal(page: Page, text: string, timeout: number): Promise<void> {
  await page.waitForFunction(
    (wanted) => {
      const rows = document.querySelector('.xterm-rows');
      return rows ? [...rows.children].some((row) => row.textContent?.includes(wanted)) : false;
    },
    text,
    { timeout },
  );
}

const statusIs = (page: Page, status: string, timeout: number) =>
  page.getByTestId('console-status').getByText(status, { exact: true }).waitFor({ timeout });

/** The first line the game sends a player who connects to `port`. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('utf8');
    socket.once('data', (line: string) => {
      socket.destroy();
      resolve(line);
    });
    socket.once('error', reject);
  });
}

describe('the Settings, Startup and Network pages', () => {
  it('rename, a new message of the day and a new primary port reach the running game after a restart', {
    timeout: 180_000,
  }, async () => {
    const page = await browser.newPage();
    onTestFailed(async () => {
      console.log(panel.output());
      await page.screenshot({ path: `${tmpdir()}/aerie-e2e-server-pages.png` }).catch(() => undefined);
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await demoInstalled(page, panel, 90_000);
    await page.getByRole('link', { name: /^Demo Server/ }).click();
    await page.getByRole('heading', { name: 'Console' }).waitFor();

    // The game runs on the first port of the range.
    await statusIs(page, 'offline', 60_000);
    await page
      .getByRole('group', { name: 'Power controls' })
      .getByRole('button', { name: 'Start', exact: true })
      .click();
    // The host (process-unsafe, a non-root daemon) or 0.0.0.0 (a namespace of its own): the port is what matters.
    await waitForTerminal(page, `:${firstPort} — type "help" for commands`, 30_000);
    expect(await greeting(firstPort)).toContain('Welcome to the Aerie demo server!');

    // Settings: the name changes in the page's title at once.
    const tabs = page.getByRole('navigation', { name: 'Server', exact: true });
    await tabs.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Change Server Details' }).waitFor();
    await page.getByLabel('Server Name').fill('Lobby');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => document.title.startsWith('Lobby |'), undefined, { timeout: 10_000 });

    // Startup: the message of the day, saved half a second after typing stops.
    await tabs.getByRole('link', { name: 'Startup' }).click();
    const motd = page.getByLabel('Message of the Day');
    await motd.waitFor();
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/startup/variable') && response.request().method() === 'PUT',
    );
    await motd.fill('Hello from the browser');
    await motd.press('End');
    expect((await saved).status()).toBe(200);

    // Network: a second port from the range, made primary.
    await tabs.getByRole('link', { name: 'Network' }).click();
    await page.getByText('You are currently using 1 of 3 allowed allocations for this server.').waitFor();
    const created = page.waitForResponse(
      (response) => response.url().endsWith('/network/allocations') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Create Allocation' }).click();
    const allocation = (await (await created).json()) as { attributes: { id: number; port: number } };
    const newPort = allocation.attributes.port;
    expect(newPort).toBeGreaterThan(firstPort);
    expect(newPort).toBeLessThanOrEqual(firstPort + 3);
    await page.getByText('You are currently using 2 of 3 allowed allocations for this server.').waitFor();
    const primary = page.waitForResponse((response) => response.url().endsWith('/primary'));
    await page.getByRole('button', { name: 'Make Primary' }).click();
    expect((await primary).status()).toBe(200);

    // A restart binds the new primary and says the new message of the day.
    await tabs.getByRole('link', { name: 'Console' }).click();
    await page.getByRole('heading', { name: 'Console' }).waitFor();
    await statusIs(page, 'running', 10_000);
    await page
      .getByRole('group', { name: 'Power controls' })
      .getByRole('button', { name: 'Restart', exact: true })
      .click();
    await waitForTerminal(page, 'Message of the day: Hello from the browser', 60_000);
    await waitForTerminal(page, `:${newPort} — type "help" for commands`, 30_000);
    expect(await greeting(newPort)).toContain('Hello from the browser');
    await page
      .getByRole('group', { name: 'Power controls' })
      .getByRole('button', { name: 'Stop', exact: true })
      .click();
    await statusIs(page, 'offline', 30_000);
    await page.close();
  });
});
