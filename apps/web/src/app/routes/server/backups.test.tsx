import { backupLimits } from '@aerie/shared/backups/backups-bodies';
import { backupMessages } from '@aerie/shared/backups/backups-messages';
import { act, screen, waitFor, within } from '@testing-library/react';
import { format } from 'date-fns';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser';
import { backupItem, backupList, failedBackupItem, runningBackupItem } from '@/testing/backup-fixtures';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

// The restore test ends on the console page, whose first load compiles xterm.js: a busy two-core machine needs time.
vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const checksum = 'sha1:0123456789abcdef0123456789abcdef01234567';
const createdAt = new Date(Date.now() - 2 * 60 * 60_000);

const nightly = backupItem({ uuid: 'b-nightly', name: 'Nightly', created_at: createdAt.toISOString() });
const running = runningBackupItem({ uuid: 'b-running', name: 'Before update' });
const failed = failedBackupItem({ uuid: 'b-failed', name: 'Broken' });
const locked = backupItem({ uuid: 'b-locked', name: 'Keep forever', is_locked: true, bytes: 1536 });

const serveBackups = (
  items = [nightly, running, failed, locked],
  meta: Parameters<typeof backupList>[1] = {},
) => panel.on(`GET ${serverApi}/backups`, () => ({ body: backupList(items, meta) }));

/** Opens /server/abcd1234/backups with a backup limit (3 unless told) and the given permissions (owner: all). */
const openBackups = ({
  permissions,
  limit = 3,
  page = '',
}: {
  permissions?: string[];
  limit?: number;
  page?: string;
} = {}) =>
  openServerPage(panel, `backups${page}`, { permissions, server: { feature_limits: { backups: limit } } });

const row = (name: string) => screen.getByRole('listitem', { name });
const findRow = (name: string) => screen.findByRole('listitem', { name });

const openMenu = async (user: ReturnType<typeof openBackups>['user'], name: string) => {
  await user.click(within(row(name)).getByRole('button', { name: `Actions for ${name}` }));
  return screen.getByRole('menu');
};
const menuItems = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

/** The page's console socket, open (the daemon's side of it). */
async function pageSocket() {
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
  const socket = FakeWebSocket.latest();
  act(() => socket.open());
  return socket;
}

const footer = (count: number, limit: number) =>
  `${count} of ${limit} backups have been created for this server.`;

describe('backups: list', () => {
  it('shows each backup: spinner while running, lock, Failed, name, size and checksum once done, created time', async () => {
    serveBackups();
    openBackups();
    const done = await findRow('Nightly');
    expect(screen.getByRole('heading', { name: 'Backups' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Backups');
    expect(requestsTo(panel, 'GET', '/backups').map((request) => request.url)).toEqual([
      `${serverApi}/backups?page=1`,
    ]);

    expect(done).toHaveTextContent('5 MB');
    expect(within(done).getByText(checksum)).toBeInTheDocument();
    const created = within(done).getByText('2 hours ago');
    expect(created).toHaveAttribute('title', format(createdAt, 'MMM do, yyyy H:mm:ss'));
    expect(done).toHaveTextContent('Created');
    expect(within(done).queryByText('Failed')).not.toBeInTheDocument();
    expect(within(done).queryByText('Backup in progress')).not.toBeInTheDocument();
    expect(within(done).queryByRole('img', { name: 'Locked' })).not.toBeInTheDocument();

    const inProgress = row('Before update');
    expect(within(inProgress).getByText('Backup in progress')).toBeInTheDocument();
    expect(inProgress).not.toHaveTextContent('Bytes');
    expect(within(inProgress).queryByText(/^sha1:/)).not.toBeInTheDocument();
    expect(within(inProgress).queryByRole('button')).not.toBeInTheDocument();

    const broken = row('Broken');
    expect(within(broken).getByText('Failed')).toBeInTheDocument();
    expect(broken).not.toHaveTextContent('Bytes');
    expect(within(broken).queryByText('Backup in progress')).not.toBeInTheDocument();

    const kept = row('Keep forever');
    expect(within(kept).getByRole('img', { name: 'Locked' })).toBeInTheDocument();
    expect(kept).toHaveTextContent('1.5 kB');
  });

  it('says so when the server has no backups', async () => {
    serveBackups([], { backupCount: 0 });
    openBackups();
    expect(
      await screen.findByText('It looks like there are no backups currently stored for this server.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Backups' })).not.toBeInTheDocument();
    expect(screen.getByText(footer(0, 3))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeInTheDocument();
  });

  it('says it ran out on a later page, with the way back', async () => {
    serveBackups([], { backupCount: 20, currentPage: 2, totalPages: 1 });
    const { router } = openBackups({ page: '?page=2', limit: 25 });
    expect(
      await screen.findByText("Looks like we've run out of backups to show you, try going back a page."),
    ).toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/backups').map((request) => request.url)).toEqual([
      `${serverApi}/backups?page=2`,
    ]);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(router.state.location.search).toBe('?page=2');
  });

  it('with a limit of 0 says backups cannot be created, and offers no Create backup', async () => {
    serveBackups([], { backupCount: 0 });
    openBackups({ limit: 0 });
    expect(
      await screen.findByText(
        'Backups cannot be created for this server because the backup limit is set to 0.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.queryByText('It looks like there are no backups currently stored for this server.'),
    ).not.toBeInTheDocument();
    expect(screen.queryByText(/backups have been created for this server/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create backup' })).not.toBeInTheDocument();
  });

  it('pages through the backups with the pagination', async () => {
    panel.on(`GET ${serverApi}/backups`, (request) =>
      request.url.endsWith('page=2')
        ? {
            body: backupList([backupItem({ uuid: 'b-old', name: 'Old one' })], {
              currentPage: 2,
              totalPages: 2,
              backupCount: 21,
            }),
          }
        : { body: backupList([nightly], { currentPage: 1, totalPages: 2, backupCount: 21 }) },
    );
    const { user, router } = openBackups({ limit: 30 });
    await findRow('Nightly');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await findRow('Old one')).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Nightly' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByText(footer(21, 30))).toBeInTheDocument();
  });

  it('shows the count against the limit, and Create backup only below the limit and with backup.create', async () => {
    serveBackups([nightly, locked], { backupCount: 2 });
    const first = openBackups({ limit: 3 });
    expect(await screen.findByText(footer(2, 3))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeInTheDocument();
    first.unmount();

    openBackups({ limit: 2 });
    expect(await screen.findByText(footer(2, 2))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create backup' })).not.toBeInTheDocument();
  });

  it('hides Create backup without backup.create', async () => {
    serveBackups([nightly], { backupCount: 1 });
    openBackups({ permissions: ['backup.read', 'backup.delete'] });
    expect(await screen.findByText(footer(1, 3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create backup' })).not.toBeInTheDocument();
  });

  it('flashes a failed load under backups', async () => {
    panel.on(`GET ${serverApi}/backups`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    openBackups();
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.queryByRole('button', { name: 'Create backup' })).not.toBeInTheDocument();
  });
});

describe('backups: create', () => {
  const openModal = async (permissions?: string[]) => {
    serveBackups([nightly], { backupCount: 1 });
    const opened = openBackups({ permissions });
    await opened.user.click(await screen.findByRole('button', { name: 'Create backup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create server backup' });
    return { ...opened, dialog };
  };

  it('has the name, the ignore rules (6 rows) and Locked with backup.delete', async () => {
    const { dialog } = await openModal();
    expect(within(dialog).getByLabelText('Backup name')).toHaveValue('');
    const ignored = within(dialog).getByLabelText('Ignored Files & Directories');
    expect(ignored.tagName).toBe('TEXTAREA');
    expect(ignored).toHaveAttribute('rows', '6');
    expect(ignored).toHaveAccessibleDescription(/Leave blank to use the contents of the \.pteroignore file/);
    expect(ignored).toHaveAccessibleDescription(/Wildcard matching .* negating a rule .* exclamation point/);
    expect(within(dialog).getByRole('switch', { name: 'Locked' })).not.toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Start backup' })).toBeInTheDocument();
  });

  it('has no Locked switch without backup.delete', async () => {
    const { dialog } = await openModal(['backup.read', 'backup.create']);
    expect(within(dialog).getByLabelText('Backup name')).toBeInTheDocument();
    expect(within(dialog).queryByRole('switch', { name: 'Locked' })).not.toBeInTheDocument();
  });

  it('refuses a name over 191 characters and sends nothing', async () => {
    const { dialog, user } = await openModal();
    const name = within(dialog).getByLabelText('Backup name');
    await user.click(name);
    await user.paste('n'.repeat(backupLimits.nameMax + 1));
    await user.click(within(dialog).getByRole('button', { name: 'Start backup' }));
    expect(name).toHaveAccessibleDescription('The backup name must not exceed 191 characters.');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(requestsTo(panel, 'POST', '/backups')).toHaveLength(0);
  });

  it('starts the backup: the running row and the new count show at once', async () => {
    let created = false;
    const fresh = runningBackupItem({ uuid: 'b-new', name: 'Before the update', is_locked: true });
    panel.on(`POST ${serverApi}/backups`, () => {
      created = true;
      return { body: fresh };
    });
    panel.on(`GET ${serverApi}/backups`, () => ({
      body: created
        ? backupList([nightly, fresh], { backupCount: 2 })
        : backupList([nightly], { backupCount: 1 }),
    }));
    const { user } = openBackups();
    await user.click(await screen.findByRole('button', { name: 'Create backup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create server backup' });
    await user.type(within(dialog).getByLabelText('Backup name'), 'Before the update');
    await user.type(within(dialog).getByLabelText('Ignored Files & Directories'), '*.log{Enter}!keep.log');
    await user.click(within(dialog).getByRole('switch', { name: 'Locked' }));
    await user.click(within(dialog).getByRole('button', { name: 'Start backup' }));

    const added = await findRow('Before the update');
    expect(within(added).getByText('Backup in progress')).toBeInTheDocument();
    expect(screen.getByText(footer(2, 3))).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/backups').map((request) => request.body)).toEqual([
      { name: 'Before the update', ignored: '*.log\n!keep.log', is_locked: true },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends no name when none is given, so the panel names it', async () => {
    panel.on(`POST ${serverApi}/backups`, () => ({
      body: runningBackupItem({ uuid: 'b-new', name: 'Backup at 2026' }),
    }));
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'Start backup' }));
    await waitFor(() => expect(requestsTo(panel, 'POST', '/backups')).toHaveLength(1));
    expect(requestsTo(panel, 'POST', '/backups')[0]?.body).toEqual({
      name: null,
      ignored: '',
      is_locked: false,
    });
  });

  it('shows a refused create inside the modal', async () => {
    panel.on(`POST ${serverApi}/backups`, () =>
      errorEnvelope(400, 'TooManyBackupsException', backupMessages.tooMany(3)),
    );
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'Start backup' }));
    const flash = await within(dialog).findByText(backupMessages.tooMany(3));
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.getByRole('dialog', { name: 'Create server backup' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('backups: row actions', () => {
  it('offers Download, Restore, Lock and Delete to the owner; Unlock and no Delete when locked', async () => {
    serveBackups();
    const { user } = openBackups();
    await findRow('Nightly');
    expect(menuItems(await openMenu(user, 'Nightly'))).toEqual(['Download', 'Restore', 'Lock', 'Delete']);
    await user.keyboard('{Escape}');
    expect(menuItems(await openMenu(user, 'Keep forever'))).toEqual(['Download', 'Restore', 'Unlock']);
  });

  it('offers only delete on a failed backup, and nothing while one runs', async () => {
    serveBackups();
    openBackups();
    const broken = await findRow('Broken');
    expect(
      within(broken)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Delete Broken']);
    expect(within(row('Before update')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows each action by its permission, and no menu without download, restore or delete', async () => {
    serveBackups();
    const first = openBackups({ permissions: ['backup.read', 'backup.download'] });
    await findRow('Nightly');
    expect(menuItems(await openMenu(first.user, 'Nightly'))).toEqual(['Download']);
    expect(within(row('Broken')).queryByRole('button')).not.toBeInTheDocument();
    first.unmount();

    const second = openBackups({ permissions: ['backup.read', 'backup.restore'] });
    await findRow('Nightly');
    expect(menuItems(await openMenu(second.user, 'Keep forever'))).toEqual(['Restore']);
    second.unmount();

    openBackups({ permissions: ['backup.read', 'backup.create'] });
    await findRow('Nightly');
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('downloads: asks the panel for the link, then the browser goes there', async () => {
    const loadPage = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const url = 'https://node.example.com:8080/download/backup?token=abc';
    panel.on(`GET ${serverApi}/backups/b-nightly/download`, () => ({
      body: { object: 'signed_url', attributes: { url } },
    }));
    serveBackups();
    const { user } = openBackups();
    await findRow('Nightly');
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Download' }));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith(url));
  });

  it('flashes a refused download under backups', async () => {
    const loadPage = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    panel.on(`GET ${serverApi}/backups/b-nightly/download`, () =>
      errorEnvelope(400, 'BadRequestHttpException', backupMessages.unknownDisk),
    );
    serveBackups();
    const { user } = openBackups();
    await findRow('Nightly');
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Download' }));
    const flash = await screen.findByText(backupMessages.unknownDisk);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('deletes after its confirmation; the row and the count go', async () => {
    let deleted = false;
    panel.on(`DELETE ${serverApi}/backups/b-nightly`, () => {
      deleted = true;
      return { status: 204 };
    });
    panel.on(`GET ${serverApi}/backups`, () => ({
      body: deleted
        ? backupList([locked], { backupCount: 1 })
        : backupList([nightly, locked], { backupCount: 2 }),
    }));
    const { user } = openBackups();
    await findRow('Nightly');
    expect(screen.getByText(footer(2, 3))).toBeInTheDocument();
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this backup?' });
    expect(dialog).toHaveTextContent(
      'This is a permanent operation. The backup cannot be recovered once deleted.',
    );
    expect(requestsTo(panel, 'DELETE', '/backups/b-nightly')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete backup' }));

    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Nightly' })).not.toBeInTheDocument());
    expect(screen.getByText(footer(1, 3))).toBeInTheDocument();
    expect(requestsTo(panel, 'DELETE', '/backups/b-nightly')).toHaveLength(1);
  });

  it('flashes a refused delete under backups', async () => {
    panel.on(`DELETE ${serverApi}/backups/b-failed`, () =>
      errorEnvelope(400, 'BackupLockedException', backupMessages.locked),
    );
    serveBackups();
    const { user } = openBackups();
    await user.click(within(await findRow('Broken')).getByRole('button', { name: 'Delete Broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this backup?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete backup' }));
    expect(await screen.findByText(backupMessages.locked)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(row('Broken')).toBeInTheDocument();
  });

  it('locks at once, and unlocks only after its confirmation', async () => {
    let isLocked = false;
    panel.on(`POST ${serverApi}/backups/b-nightly/lock`, () => {
      isLocked = !isLocked;
      return { body: backupItem({ ...nightly.attributes, is_locked: isLocked }) };
    });
    serveBackups();
    const { user } = openBackups();
    await findRow('Nightly');
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Lock' }));
    expect(await within(row('Nightly')).findByRole('img', { name: 'Locked' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/backups/b-nightly/lock')).toHaveLength(1);

    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Unlock' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock this backup?' });
    expect(dialog).toHaveTextContent(
      'This backup will no longer be protected from automated or accidental deletions.',
    );
    expect(requestsTo(panel, 'POST', '/backups/b-nightly/lock')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Yes, unlock' }));
    await waitFor(() =>
      expect(within(row('Nightly')).queryByRole('img', { name: 'Locked' })).not.toBeInTheDocument(),
    );
    expect(requestsTo(panel, 'POST', '/backups/b-nightly/lock')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('raises an alert with the message when a lock change is refused', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    panel.on(`POST ${serverApi}/backups/b-nightly/lock`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    serveBackups();
    const { user } = openBackups();
    await findRow('Nightly');
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Lock' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('This action is unauthorized.'));
    expect(within(row('Nightly')).queryByRole('img', { name: 'Locked' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('backups: live completion', () => {
  it('finishes a running backup when its own completion event arrives', async () => {
    serveBackups([nightly, running], { backupCount: 2 });
    openBackups();
    await findRow('Before update');
    const socket = await pageSocket();
    // Another backup's event changes nothing here.
    act(() =>
      socket.receive(
        'backup completed:b-other',
        JSON.stringify({
          uuid: 'b-other',
          is_successful: true,
          checksum: 'ff',
          checksum_type: 'sha1',
          file_size: 1,
        }),
      ),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(row('Before update')).getByText('Backup in progress')).toBeInTheDocument();

    act(() =>
      socket.receive(
        'backup completed:b-running',
        JSON.stringify({
          uuid: 'b-running',
          is_successful: true,
          checksum: 'aabbccddeeff00112233445566778899aabbccdd',
          checksum_type: 'sha1',
          file_size: 3 * 1024 * 1024 * 1024,
        }),
      ),
    );
    // The query cache tells the page on its next tick.
    await waitFor(() => expect(row('Before update')).toHaveTextContent('3 GB'));
    const done = row('Before update');
    expect(within(done).queryByText('Backup in progress')).not.toBeInTheDocument();
    expect(within(done).getByText('sha1:aabbccddeeff00112233445566778899aabbccdd')).toBeInTheDocument();
    expect(within(done).getByRole('button', { name: 'Actions for Before update' })).toBeInTheDocument();
    expect(screen.getByText(footer(2, 3))).toBeInTheDocument();
  });

  it('marks a backup Failed when it ended badly; it no longer counts against the limit', async () => {
    serveBackups([nightly, running], { backupCount: 2 });
    openBackups({ limit: 2 });
    await findRow('Before update');
    expect(screen.queryByRole('button', { name: 'Create backup' })).not.toBeInTheDocument();
    const socket = await pageSocket();
    act(() =>
      socket.receive(
        'backup completed:b-running',
        JSON.stringify({
          uuid: 'b-running',
          is_successful: false,
          checksum: '',
          checksum_type: 'sha1',
          file_size: 0,
        }),
      ),
    );
    expect(await within(row('Before update')).findByText('Failed')).toBeInTheDocument();
    const broken = row('Before update');
    expect(within(broken).queryByText('Backup in progress')).not.toBeInTheDocument();
    expect(within(broken).getByRole('button', { name: 'Delete Before update' })).toBeInTheDocument();
    expect(screen.getByText(footer(1, 2))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeInTheDocument();
  });

  it('loads the list again on (re)authentication while a backup shows as running', async () => {
    let finished = false;
    panel.on(`GET ${serverApi}/backups`, () => ({
      body: backupList([
        finished
          ? backupItem({
              ...running.attributes,
              completed_at: new Date().toISOString(),
              is_successful: true,
              bytes: 2048,
              checksum,
            })
          : running,
      ]),
    }));
    openBackups();
    await findRow('Before update');
    const socket = await pageSocket();
    finished = true;
    act(() => socket.receive('auth success'));
    await waitFor(() => expect(row('Before update')).toHaveTextContent('2 kB'));
    expect(within(row('Before update')).queryByText('Backup in progress')).not.toBeInTheDocument();
    expect(requestsTo(panel, 'GET', '/backups')).toHaveLength(2);

    // Nothing runs any more: another authentication asks for nothing.
    act(() => socket.receive('auth success'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(requestsTo(panel, 'GET', '/backups')).toHaveLength(2);
  });
});

describe('backups: restore', () => {
  it('restores after its confirmation, shows the restoring screen, and returns to the console when done', async () => {
    panel.on(`POST ${serverApi}/backups/b-nightly/restore`, () => ({ status: 204 }));
    serveBackups();
    const { user, router } = openBackups();
    await findRow('Nightly');
    const socket = await pageSocket();
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this backup?' });
    expect(dialog).toHaveTextContent(/This server will be stopped in order to restore the backup\./);
    const truncate = within(dialog).getByRole('checkbox', {
      name: 'Remove all files and folders before restoring this backup.',
    });
    expect(truncate).not.toBeChecked();
    await user.click(truncate);
    await user.click(within(dialog).getByRole('button', { name: 'Restore backup' }));

    expect(await screen.findByRole('heading', { name: 'Restoring from Backup' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Your server is currently being restored from a backup, please check back in a few minutes.',
      ),
    ).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/backups/b-nightly/restore').map((request) => request.body)).toEqual([
      { truncate: true },
    ]);

    act(() => socket.receive('backup restore completed', ''));
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234');
    expect(screen.queryByRole('heading', { name: 'Restoring from Backup' })).not.toBeInTheDocument();
  });

  it('flashes a refused restore under backups and stays on the page', async () => {
    panel.on(`POST ${serverApi}/backups/b-nightly/restore`, () =>
      errorEnvelope(400, 'BadRequestHttpException', backupMessages.restoreServerState),
    );
    serveBackups();
    const { user } = openBackups();
    await findRow('Nightly');
    await user.click(within(await openMenu(user, 'Nightly')).getByRole('menuitem', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this backup?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore backup' }));
    expect(await screen.findByText(backupMessages.restoreServerState)).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/backups/b-nightly/restore')[0]?.body).toEqual({ truncate: false });
    expect(screen.queryByRole('heading', { name: 'Restoring from Backup' })).not.toBeInTheDocument();
    expect(row('Nightly')).toBeInTheDocument();
  });
});
