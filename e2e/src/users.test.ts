import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** The link of the first message in the outbox sent to `to` (quoted-printable undone). */
async function mailedLink(to: string): Promise<string> {
  const outbox = join(panel.dataDir, 'mail');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const messages = existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.eml')) : [];
    for (const name of messages) {
      const text = readFileSync(join(outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!text.includes(`To: ${to}`)) continue;
      const link = text.match(/https?:\/\/[^\s"<>]+\/auth\/password\/reset\/[^\s"<>]+/)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} after 15 s:\n${panel.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('sharing a server', () => {
  it('the owner invites a friend with file permissions (no SFTP) only; the friend sets a password from the mail, sees Console and File Manager only, and loses the server when removed', {
    timeout: 180_000,
  }, async () => {
    const owner = await browser.newPage();
    await owner.goto(`${panel.url}/auth/login`);
    await signIn(owner, panel.admin.username, panel.admin.password);
    await owner.waitForURL(`${panel.url}/`);
    await demoInstalled(owner, panel, 90_000);
    await owner.getByRole('link', { name: /^Demo Server/ }).click();
    await owner.getByRole('heading', { name: 'Console' }).waitFor();
    const serverUrl = owner.url();

    // The invitation.
    await owner
      .getByRole('navigation', { name: 'Server', exact: true })
      .getByRole('link', { name: 'Users' })
      .click();
    await owner.getByText("It looks like you don't have any subusers.").waitFor();
    await owner.getByRole('button', { name: 'New User' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Create new subuser' }).waitFor();
    await dialog.getByLabel('User Email').fill('friend@example.com');
    await dialog.getByRole('checkbox', { name: /Select every file permission/i }).check();
    // Every file permission but SFTP, whose details would add the Settings tab.
    await dialog.getByRole('checkbox', { name: /^file\.\s*sftp$/ }).uncheck();
    await dialog.getByRole('button', { name: 'Invite User' }).click();
    await dialog.waitFor({ state: 'detached' });
    await owner.getByText('friend@example.com').waitFor();

    // The friend's first visit: a password from the mailed link, then the shared server.
    const friendContext = await browser.newContext();
    const friend = await friendContext.newPage();
    await friend.goto(await mailedLink('friend@example.com'));
    await friend.getByLabel('New Password', { exact: true }).fill('friend password 1');
    await friend.getByLabel('Confirm New Password').fill('friend password 1');
    await friend.getByRole('button', { name: 'Reset Password' }).click();
    await friend.waitForURL(`${panel.url}/`);
    await friend.getByRole('link', { name: /^Demo Server/ }).click();
    await friend.getByRole('heading', { name: 'Console' }).waitFor();
    const tabs = friend.getByRole('navigation', { name: 'Server', exact: true }).getByRole('link');
    expect(await tabs.allTextContents()).toEqual(['Console', 'File Manager']);

    // Removed: the server is gone for the friend at once.
    await owner.getByRole('button', { name: 'Delete friend@example.com' }).click();
    await owner.getByRole('button', { name: 'Yes, remove subuser' }).click();
    await owner.getByText("It looks like you don't have any subusers.").waitFor();
    const answer = await friend.request.get(`${serverUrl.replace('/server/', '/api/client/servers/')}`, {
      headers: { accept: 'application/json' },
    });
    expect(answer.status()).toBe(404);
    await friend.reload();
    await friend.getByText('The requested resource does not exist on this server.').waitFor();
    await friend.getByRole('link', { name: 'Dashboard' }).click();
    await friend.waitForURL(`${panel.url}/`);
    await friend.waitForLoadState('networkidle');
    expect(await friend.getByRole('link', { name: /^Demo Server/ }).count()).toBe(0);
    await friendContext.close();
    await owner.close();
  });
});
