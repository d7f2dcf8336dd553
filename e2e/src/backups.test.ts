import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type S3TestServer, s3TestServerMissing, startS3TestServer } from '@aerie/daemon/testing/s3-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium } from './support/browser';
import { demoInstalled } from './support/demo-install';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

/**
 * A backup of the demo server made from the Backups page, downloaded, locked and unlocked, a file deleted in the
 * file manager, the backup restored
 * from its row menu, and the file back with the same bytes: once on the node's disk (`wings`), once in an S3 bucket
 * (moto's S3 server in its own process, the panel configured with APP_BACKUP_DRIVER=s3).
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The demo server's directory on the local daemon (the process runtime keeps it under DATA_DIR). */
function serverRoot(panel: RunningPanel): string {
  const volumes = join(panel.dataDir, 'daemon', 'volumes');
  const [uuid] = readdirSync(volumes);
  if (!uuid) throw new Error(`no server directory under ${volumes}`);
  return join(volumes, uuid);
}

const fileRow = (page: Page, name: string) => page.getByTestId('file-row').filter({ hasText: name });
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Server', exact: true }).getByRole('link', { name, exact: true });

async function backUpDeleteAndRestore(panel: RunningPanel, label: string): Promise<void> {
  const page = await browser.newPage({ acceptDownloads: true });
  onTestFailed(async () => {
    console.log(panel.output());
    await page.screenshot({ path: join(tmpdir(), `aerie-e2e-backups-${label}.png`) }).catch(() => undefined);
  });
  await page.goto(`${panel.url}/auth/login`);
  await signIn(page, panel.admin.username, panel.admin.password);
  await page.waitForURL(`${panel.url}/`);
  await demoInstalled(page, panel, 90_000);
  const game = join(serverRoot(panel), 'demo-server.mjs');
  const original = readFileSync(game);

  await page.getByRole('link', { name: /^Demo Server/ }).click();
  await tab(page, 'Backups').click();
  await page.getByText('It looks like there are no backups currently stored for this server.').waitFor();
  await page.getByText('0 of 3 backups have been created for this server.').waitFor();
  await page.getByRole('button', { name: 'Create backup' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Create server backup').waitFor();
  await dialog.getByLabel('Backup name').fill('Before the cleanup');
  await dialog.getByRole('button', { name: 'Start backup' }).click();
  await dialog.waitFor({ state: 'detached' });
  const backup = page.getByRole('listitem', { name: 'Before the cleanup' });
  // Completed by the node's `backup completed` event: the spinner goes and the checksum shows.
  await backup.getByText(/^sha1:[0-9a-f]{40}$/).waitFor({ timeout: 60_000 });
  await expect(backup.getByText('Backup in progress').count()).resolves.toBe(0);
  await page.getByText('1 of 3 backups have been created for this server.').waitFor();
  const checksum = (await backup.getByText(/^sha1:/).textContent()) as string;

  // Downloaded through the link the panel signs (the node's one-time link, or the store's presigned URL): the very
  // archive whose checksum the row shows.
  const menu = () =>
    page.getByRole('button', { name: 'Actions for Before the cleanup', exact: true }).click();
  await menu();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Download', exact: true }).click(),
  ]);
  const archive = await download.path();
  expect(`sha1:${createHash('sha1').update(readFileSync(archive)).digest('hex')}`).toBe(checksum);

  // Locked: no Delete in its menu until it is unlocked, which asks first.
  await menu();
  await page.getByRole('menuitem', { name: 'Lock', exact: true }).click();
  await backup.getByLabel('Locked').waitFor();
  await menu();
  await page.getByRole('menuitem', { name: 'Unlock', exact: true }).waitFor();
  expect(await page.getByRole('menuitem', { name: 'Delete', exact: true }).count()).toBe(0);
  await page.getByRole('menuitem', { name: 'Unlock', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, unlock' }).click();
  await backup.getByLabel('Locked').waitFor({ state: 'detached' });

  await tab(page, 'File Manager').click();
  await page.getByRole('button', { name: 'Actions for demo-server.mjs', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await fileRow(page, 'demo-server.mjs').waitFor({ state: 'detached' });
  await expect.poll(() => existsSync(game)).toBe(false);

  await tab(page, 'Backups').click();
  await page.getByRole('button', { name: 'Actions for Before the cleanup', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Restore', exact: true }).click();
  const restore = page.getByRole('dialog');
  await restore.getByText('Restore this backup?').waitFor();
  await restore.getByRole('button', { name: 'Restore backup' }).click();
  // The node reports the end of the restore; the page goes back to the console.
  await page.getByRole('heading', { name: 'Console' }).waitFor({ timeout: 60_000 });
  await expect.poll(() => (existsSync(game) ? readFileSync(game).equals(original) : false)).toBe(true);

  await tab(page, 'File Manager').click();
  await fileRow(page, 'demo-server.mjs').waitFor({ timeout: 30_000 });
  await page.close();
}

describe('backups on the node (wings)', () => {
  let panel: RunningPanel;
  beforeAll(async () => {
    panel = await startPanel();
  });
  afterAll(async () => {
    await panel?.stop();
  });

  it(
    'backs up the demo server, downloads and locks the backup, and a restore brings back a deleted file',
    { timeout: 240_000 },
    () => backUpDeleteAndRestore(panel, 'wings'),
  );
});

describe.skipIf(s3TestServerMissing)('backups in an S3 bucket', () => {
  let panel: RunningPanel;
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3TestServer();
    const bucket = await s3.createBucket('aerie-e2e');
    panel = await startPanel({
      APP_BACKUP_DRIVER: 's3',
      AWS_ENDPOINT: s3.endpoint,
      AWS_DEFAULT_REGION: s3.region,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_BACKUPS_BUCKET: bucket,
      AWS_USE_PATH_STYLE_ENDPOINT: 'true',
    });
  });
  afterAll(async () => {
    await panel?.stop();
    await s3?.stop();
  });

  it(
    'backs up to the bucket, downloads and locks the backup, and a restore from it brings back a deleted file',
    { timeout: 240_000 },
    () => backUpDeleteAndRestore(panel, 's3'),
  );
});
