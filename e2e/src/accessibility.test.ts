import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

/** axe-core's browser build, injected into each page as a script (the contexts bypass the panel's CSP for it). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

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

/** Runs axe over the page as it is and returns its serious and critical violations, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Let the fade-in animations end: a half-faded text would be measured at half its contrast.
  await page.waitForTimeout(400);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }
    ).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 5)
          .map(
            (node) =>
              `${node.target.join(' ')}${node.failureSummary ? ` [${node.failureSummary.replace(/\s+/g, ' ')}]` : ''}`,
          )
          .join('; ')}`,
    );
}

/** Each state checked: how to reach it from a signed-in page at the server's pages. */
interface PageState {
  name: string;
  open: (page: Page, server: string) => Promise<void>;
}

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 30_000 });

const states: PageState[] = [
  {
    name: 'dashboard',
    open: async (page) => {
      await page.goto(`${panel.url}/`);
      await heading(page, 'Dashboard');
      await page.getByRole('link', { name: /^Demo Server/ }).waitFor();
    },
  },
  {
    name: 'account',
    open: async (page) => {
      await page.goto(`${panel.url}/account`);
      await heading(page, 'Account Overview');
    },
  },
  {
    name: 'API credentials',
    open: async (page) => {
      await page.goto(`${panel.url}/account/api`);
      await heading(page, 'Account API');
    },
  },
  {
    name: 'console',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}`);
      await heading(page, 'Console');
      await page.getByTestId('console-status').filter({ hasNotText: 'Connecting...' }).waitFor();
    },
  },
  {
    name: 'file manager',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}/files`);
      await page.getByTestId('file-row').filter({ hasText: 'demo-server.mjs' }).waitFor({ timeout: 60_000 });
    },
  },
  {
    name: 'rename modal',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}/files`);
      await page.getByTestId('file-row').filter({ hasText: 'demo-server.mjs' }).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Actions for demo-server.mjs', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Rename', exact: true }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'file editor',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}/files/edit#/demo-server.mjs`);
      await page.locator('.cm-content').waitFor();
      await page.getByLabel('Language').waitFor();
    },
  },
  {
    name: 'schedules',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}/schedules`);
      await heading(page, 'Schedules');
    },
  },
  {
    name: 'backups',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}/backups`);
      await heading(page, 'Backups');
    },
  },
  {
    name: 'users',
    open: async (page, server) => {
      await page.goto(`${panel.url}/server/${server}/users`);
      await heading(page, 'Users');
    },
  },
];

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('axe-core over the client area at $width px: no serious or critical violation', (viewport) => {
  it('on the sign-in page', async () => {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${panel.url}/auth/login`);
    await heading(page, 'Login to Continue');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on every signed-in page and modal', async () => {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const page = await context.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: join(tmpdir(), `aerie-e2e-axe-${viewport.width}.png`), fullPage: true });
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await demoInstalled(page, panel);
    await page.getByRole('link', { name: /^Demo Server/ }).click();
    await page.waitForURL(/\/server\/[^/]+$/);
    const server = new URL(page.url()).pathname.split('/')[2] as string;

    const found: Record<string, string[]> = {};
    for (const state of states) {
      await state.open(page, server);
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[state.name] = violations;
    }
    expect(found).toEqual({});
    await context.close();
  });
});
