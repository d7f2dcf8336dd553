import { tmpdir } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { freePort } from './support/free-port';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

let panel: RunningPanel;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  panel = await startPanel({ DEMO_PORT_RANGE: `${port}-${port}` });
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

describe('schedules', () => {
  it('a schedule with a "say scheduled" command, run now, says it in the console', {
    timeout: 180_000,
  }, async () => {
    const page = await browser.newPage();
    onTestFailed(async () => {
      console.log(panel.output());
      await page.screenshot({ path: `${tmpdir()}/aerie-e2e-schedules.png` }).catch(() => undefined);
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await demoInstalled(page, panel, 90_000);
    await page.getByRole('link', { name: /^Demo Server/ }).click();
    await page.getByRole('heading', { name: 'Console' }).waitFor();
    const power = page.getByRole('group', { name: 'Power controls' });
    await page
      .getByTestId('console-status')
      .getByText('offline', { exact: true })
      .waitFor({ timeout: 60_000 });
    await power.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForTerminal(page, 'Server started on', 30_000);

    const tabs = page.getByRole('navigation', { name: 'Server', exact: true });
    await tabs.getByRole('link', { name: 'Schedules' }).click();
    await page.getByText('There are no schedules configured for this server').waitFor();
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Schedule name').fill('Announcements');
    await dialog.getByRole('button', { name: 'Create schedule' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: /Announcements/ }).click();

    await page.getByRole('button', { name: 'New Task' }).click();
    const taskDialog = page.getByRole('dialog');
    await taskDialog.getByLabel('Payload').fill('say scheduled');
    await taskDialog.getByRole('button', { name: 'Create Task' }).click();
    await taskDialog.waitFor({ state: 'detached' });
    await page.getByText('say scheduled').waitFor();

    await page.getByRole('button', { name: 'Run Now' }).click();
    await tabs.getByRole('link', { name: 'Console' }).click();
    await waitForTerminal(page, '[Server] scheduled', 30_000);

    await power.getByRole('button', { name: 'Stop', exact: true }).click();
    await page
      .getByTestId('console-status')
      .getByText('offline', { exact: true })
      .waitFor({ timeout: 30_000 });
    await page.close();
  });
});
