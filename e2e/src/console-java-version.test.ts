import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { freePort } from './support/free-port';
import { type RunningPanel, repoRoot, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

/**
 * Issue 24 item 1 in Chromium: the demo egg gets the java_version feature and a second image (Application API), the
 * demo server's message of the day becomes a Java version error (the game prints it while starting), and starting
 * the server opens 'Unsupported Java Version'; picking the other image saves it and restarts the server.
 */
let panel: RunningPanel;
let browser: Browser;

const images = { 'Node 20': 'node:20-bookworm-slim', 'Node 22': 'node:22-bookworm-slim' };

beforeAll(async () => {
  const port = await freePort();
  panel = await startPanel({ DEMO_PORT_RANGE: `${port}-${port}` });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

/** An application key for the first admin, made with the CLI as a script would. */
function applicationKey(): string {
  const created = spawnSync(
    process.execPath,
    ['bin/aerie.mjs', 'key:create', '--application', '--user', 'admin'],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: panel.dataDir }, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`key:create failed: ${created.stderr}`);
  return created.stdout.trim();
}

async function application(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${panel.url}/api/application/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${path}: ${await response.clone().text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

describe('console java_version panel', () => {
  it('opens on a Java version error in the console and restarts the server on the image picked', {
    timeout: 180_000,
  }, async () => {
    const page = await browser.newPage();
    onTestFailed(async () => {
      console.log(panel.output());
      await page.screenshot({ path: `${tmpdir()}/aerie-e2e-java-version.png` }).catch(() => undefined);
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await demoInstalled(page, panel, 90_000);

    // The demo server's egg: the java_version feature and a second image to move to.
    const key = applicationKey();
    const servers = (await application(key, 'GET', 'servers')) as {
      data: { attributes: { name: string; egg: number; nest: number; identifier: string } }[];
    };
    const demo = servers.data.find((server) => server.attributes.name === 'Demo Server')?.attributes;
    expect(demo).toBeDefined();
    const { egg, nest, identifier } = demo as NonNullable<typeof demo>;
    await application(key, 'PATCH', `nests/${nest}/eggs/${egg}`, {
      features: ['eula', 'java_version'],
      docker_images: images,
    });

    // The game prints its message of the day while it starts: make that a Java version error.
    await page.goto(`${panel.url}/server/${identifier}/startup`);
    const motd = page.getByLabel('Message of the Day');
    // 64 characters at most (the egg's rule).
    await motd.fill('java.lang.UnsupportedClassVersionError: Main');
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/startup/variable') && response.request().method() === 'PUT',
    );
    await motd.press('End');
    expect((await saved).status()).toBe(200);

    await page.goto(`${panel.url}/server/${identifier}`);
    await page.getByRole('heading', { name: 'Console' }).waitFor();
    await page
      .getByTestId('console-status')
      .getByText('offline', { exact: true })
      .waitFor({ timeout: 60_000 });
    await page
      .getByRole('group', { name: 'Power controls' })
      .getByRole('button', { name: 'Start', exact: true })
      .click();

    const dialog = page.getByRole('dialog', { name: 'Unsupported Java Version' });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog
      .getByText('This server is currently running an unsupported version of Java and cannot be started.', {
        exact: false,
      })
      .waitFor();
    const select = dialog.getByLabel('Docker Image');
    expect(await select.locator('option').allTextContents()).toEqual(['Node 20', 'Node 22']);
    expect(await select.inputValue()).toBe(images['Node 22']);
    const changed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/settings/docker-image') && response.request().method() === 'PUT',
    );
    await dialog.getByRole('button', { name: 'Update Docker Image' }).click();
    expect((await changed).status()).toBe(204);
    // No wait for the modal to close: the restarted game prints the same message of the day, and the modal rightly
    // opens again on it (a real server on the right Java would not print it), so it may never be seen closed.

    // The panel has the new image, and the server went through a restart (starting again after the pick).
    const detail = await page.request.get(`${panel.url}/api/client/servers/${identifier}`);
    expect(((await detail.json()) as { attributes: { docker_image: string } }).attributes.docker_image).toBe(
      images['Node 22'],
    );
    await page.waitForFunction(
      () =>
        [...(document.querySelector('.xterm-rows')?.children ?? [])].some((row) =>
          row.textContent?.includes('Stopping server...'),
        ),
      undefined,
      { timeout: 30_000 },
    );
    await page
      .getByTestId('console-status')
      .getByText('running', { exact: true })
      .waitFor({ timeout: 60_000 });
    await page.close();
  });
});
