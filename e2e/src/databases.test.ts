import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { type RunningPanel, repoRoot, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

/**
 * The Databases page against a real MariaDB (the first `mysql://` of AERIE_TEST_DATABASE_HOSTS, which `.ci/run`
 * sets): an admin adds the host, the owner creates a database for the demo server, connects with what the
 * connection modal shows, rotates the password (the old one stops working), and deletes it by typing its name.
 */
const hostUrl = (process.env.AERIE_TEST_DATABASE_HOSTS ?? '')
  .split(',')
  .map((text) => text.trim())
  .find((text) => text.startsWith('mysql://'));
const skip = hostUrl === undefined && process.env.CI !== 'true';
if (skip) console.warn('Skipping the Databases end-to-end test: no mysql:// in AERIE_TEST_DATABASE_HOSTS');

let panel: RunningPanel;
let browser: Browser;

/** An application key for the first admin, made with the CLI as a script would. */
function applicationKey(): string {
  const created = spawnSync(
    process.execPath,
    ['bin/aerie.mjs', 'key:create', '--application', '--user', 'admin'],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: panel.dataDir },
      encoding: 'utf8',
    },
  );
  if (created.status !== 0) throw new Error(`key:create failed: ${created.stderr}`);
  return created.stdout.trim();
}

/** Credentials read back from the JDBC string the connection modal shows (a URL: each part percent-encoded). */
async function shownCredentials(page: Page) {
  const dialog = page.getByRole('dialog');
  const jdbc = (await dialog.getByText(/^jdbc:mysql:\/\//).textContent()) as string;
  const match = /^jdbc:mysql:\/\/([^:@]+):([^@]+)@([^@:/]+):(\d+)\/(.+)$/.exec(jdbc);
  if (!match) throw new Error(`unexpected JDBC string ${jdbc}`);
  const [, user, password, host, port, database] = (match as unknown as string[]).map((part) =>
    decodeURIComponent(part),
  );
  return { user, password, host, port: Number(port), database } as {
    user: string;
    password: string;
    host: string;
    port: number;
    database: string;
  };
}

/** Whether those credentials open the database (and see it). */
async function connects(credentials: Awaited<ReturnType<typeof shownCredentials>>): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ ...credentials, connectTimeout: 5000 });
    const [rows] = await connection.query('SELECT DATABASE() AS name');
    await connection.end();
    return (rows as { name: string }[])[0]?.name === credentials.database;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  if (skip) return;
  panel = await startPanel();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

describe.skipIf(skip)('databases', () => {
  it('creates a database the game can connect to, rotates its password and deletes it', {
    timeout: 180_000,
  }, async () => {
    const url = new URL(hostUrl as string);
    const key = applicationKey();
    const added = await fetch(`${panel.url}/api/application/database-hosts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        name: 'MariaDB',
        driver: 'mysql',
        host: url.hostname,
        port: Number(url.port || 3306),
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
      }),
    });
    expect(added.status, await added.clone().text()).toBe(201);

    const page = await browser.newPage();
    onTestFailed(async () => {
      console.log(panel.output());
      await page.screenshot({ path: join(tmpdir(), 'aerie-e2e-databases.png') }).catch(() => undefined);
    });
    await page.goto(`${panel.url}/auth/login`);
    await signIn(page, panel.admin.username, panel.admin.password);
    await page.waitForURL(`${panel.url}/`);
    await demoInstalled(page, panel, 90_000);
    await page.getByRole('link', { name: /^Demo Server/ }).click();
    await page
      .getByRole('navigation', { name: 'Server', exact: true })
      .getByRole('link', { name: 'Databases' })
      .click();
    await page.getByText('It looks like you have no databases').waitFor();

    await page.getByRole('button', { name: 'New Database' }).click();
    // A fresh panel's demo server is always server 1: a name of its own keeps runs on one shared host apart.
    const short = `stats${randomBytes(3).toString('hex')}`;
    const create = page.getByRole('dialog');
    await create.getByLabel('Database Name').fill(short);
    await create.getByRole('button', { name: 'Create Database' }).click();
    await create.waitFor({ state: 'detached' });
    const row = page.getByRole('listitem').filter({ hasText: `_${short}` });
    await row.waitFor();
    await page.getByText('1 of 2 databases have been allocated to this server.').waitFor();
    const name = (await row.getAttribute('aria-label')) as string;
    expect(name).toMatch(new RegExp(`^s\\d+_${short}$`));

    await page.getByRole('button', { name: `Connection details for ${name}` }).click();
    const first = await shownCredentials(page);
    expect(first.database).toBe(name);
    expect(await connects(first)).toBe(true);

    await page.getByRole('dialog').getByRole('button', { name: 'Rotate Password' }).click();
    await expect.poll(async () => (await shownCredentials(page)).password).not.toBe(first.password);
    const rotated = await shownCredentials(page);
    expect(await connects(rotated)).toBe(true);
    expect(await connects(first)).toBe(false);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();

    await page.getByRole('button', { name: `Delete ${name}` }).click();
    const remove = page.getByRole('dialog');
    await remove.getByLabel('Confirm database name').fill(short);
    await remove.getByRole('button', { name: 'Delete Database' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByText('It looks like you have no databases').waitFor();
    expect(await connects(rotated)).toBe(false);
  });
});
