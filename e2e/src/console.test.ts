import { tmpdir } from 'node:os';
import {
  describeWithEngine,
  ensureTestImages,
  findEngine,
} from '@aerie/daemon/runtime/docker/docker-test-engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstallHandedOver } from './support/demo-install';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** What the xterm.js terminal shows, row by row (its DOM renderer draws one element per row). */
const terminalText = (page: Page) =>
  page.locator('.xterm-rows').evaluate((rows) => [...rows.children].map((row) => row.textContent).join('\n'));

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

/** The whole console flow of issue 5: start, see it come up, talk to it, stop it. */
function consoleFlow(
  runtime: 'process' | 'docker',
  timeouts: { install: number; start: number; test: number },
) {
  let panel: RunningPanel;

  beforeAll(async () => {
    panel = await startPanel({ RUNTIME: runtime });
  });
  afterAll(async () => {
    await panel?.stop();
  });

  it(
    'starts the demo server from the console page, sends a command, sees the echo and stops it',
    async () => {
      await demoInstallHandedOver(panel, timeouts.install);
      const page = await browser.newPage();
      // A failure in CI is hard to read without what the panel and its daemon printed, and what the page showed.
      onTestFailed(async () => {
        console.log(panel.output());
        await page
          .screenshot({ path: `${tmpdir()}/aerie-e2e-console-${runtime}.png` })
          .catch(() => undefined);
      });
      await page.goto(`${panel.url}/auth/login`);
      await signIn(page, panel.admin.username, panel.admin.password);
      await page.waitForURL(`${panel.url}/`);
      await page.getByRole('link', { name: /^Demo Server/ }).click();
      await page.getByRole('heading', { name: 'Console' }).waitFor();

      // A fresh install hands the demo server to the daemon, which installs it first.
      await statusIs(page, 'offline', timeouts.install);
      const power = page.getByRole('group', { name: 'Power controls' });
      const start = power.getByRole('button', { name: 'Start', exact: true });
      expect(await start.isEnabled()).toBe(true);
      expect(await power.getByRole('button', { name: 'Stop', exact: true }).isDisabled()).toBe(true);

      await start.click();
      await waitForTerminal(page, 'Server started on', timeouts.start);
      await statusIs(page, 'running', 10_000);
      await waitForTerminal(page, 'Server marked as running...', 10_000);
      expect(await start.isDisabled()).toBe(true);

      const input = page.getByLabel('Console command input.');
      await input.fill('say hello');
      await input.press('Enter');
      await waitForTerminal(page, '[Server] hello', 10_000);
      // The sent command is kept in the input's history: arrow up brings it back.
      expect(await input.inputValue()).toBe('');
      await input.press('ArrowUp');
      expect(await input.inputValue()).toBe('say hello');

      await power.getByRole('button', { name: 'Stop', exact: true }).click();
      await waitForTerminal(page, 'Server stopped.', 30_000);
      await statusIs(page, 'offline', 30_000);
      expect(await start.isEnabled()).toBe(true);
      const text = await terminalText(page);
      expect(text.indexOf('Server started on')).toBeLessThan(text.indexOf('[Server] hello'));
      await page.close();
    },
    timeouts.test,
  );
}

describe('console with the process runtime (the embedded default)', () => {
  consoleFlow('process', { install: 60_000, start: 30_000, test: 150_000 });
});

// The same flow with servers in containers, against the engine at DOCKER_HOST: CI starts one
// (.ci/docker-engine.sh) and, with CI=true, fails rather than skips without it.
const docker = await findEngine();
describeWithEngine('console with the docker runtime', docker, () => {
  // The demo egg's image, made locally (this machine reaches no registry): built unless the engine has it.
  beforeAll(() => (docker ? ensureTestImages(docker) : undefined), 150_000);
  consoleFlow('docker', { install: 150_000, start: 60_000, test: 300_000 });
});
