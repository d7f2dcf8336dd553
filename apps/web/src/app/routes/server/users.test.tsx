import { allPermissions, systemPermissionsResponse } from '@aerie/shared/permissions/permissions';
import { subuserMessages } from '@aerie/shared/subusers/subusers-bodies';
import { subuserFormMessages } from '@aerie/shared/subusers/subusers-forms';
import type { SubuserAttributes } from '@aerie/shared/subusers/subusers-wire';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser } from '@/testing/render-app';
import { openServerPage, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

// The dialog scrolls back to its top after a refused save; jsdom has no scrolling, so the call is recorded.
const scrollIntoView = vi.fn();
beforeEach(() => {
  scrollIntoView.mockReset();
  Element.prototype.scrollIntoView = scrollIntoView;
});
afterEach(() => {
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

/** The signed-in user (pageUser's uuid), for the "own row" rules. */
const viewer = pageUser();

const subuser = (overrides: Partial<SubuserAttributes> & { email: string }): SubuserAttributes => ({
  uuid: `uuid-${overrides.email.split('@')[0]}`,
  username: overrides.email.split('@')[0] as string,
  image: '',
  '2fa_enabled': false,
  created_at: '2026-01-01T12:00:00+00:00',
  permissions: ['websocket.connect'],
  ...overrides,
});

const friend = subuser({
  email: 'sam.friend@example.com',
  permissions: ['control.console', 'file.read', 'file.update', 'websocket.connect'],
});
const pictured = subuser({
  email: 'alex@example.com',
  image: 'https://avatars.example.com/avatar/0123abcd',
  '2fa_enabled': true,
  permissions: ['control.start', 'websocket.connect'],
});
/** The viewer's own row, when they are a subuser. */
const self = subuser({
  uuid: viewer.uuid,
  email: viewer.email,
  permissions: ['user.read', 'user.update', 'user.delete', 'websocket.connect'],
});

const item = (attributes: SubuserAttributes) => ({ object: 'server_subuser', attributes });
const serveUsers = (list: SubuserAttributes[] = [friend, pictured]) => {
  panel.on(`GET ${serverApi}/users`, () => ({ body: { object: 'list', data: list.map(item) } }));
  panel.on('GET /api/client/permissions', () => ({ body: systemPermissionsResponse() }));
};

const openUsers = (permissions?: string[], { rootAdmin = false } = {}) =>
  openServerPage(panel, 'users', { permissions, user: pageUser({ root_admin: rootAdmin }) });

const row = (email: string) => screen.getByRole('listitem', { name: email });
const checkbox = (scope: HTMLElement, permission: string) =>
  within(scope).getByRole('checkbox', { name: permission });
const notice =
  'Only permissions which your account is currently assigned may be selected when creating or modifying other users.';

describe('users: list', () => {
  it('shows each subuser with avatar, email, 2FA icon and the count without websocket.connect', async () => {
    serveUsers();
    openUsers();
    expect(await screen.findByRole('listitem', { name: 'sam.friend@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Users');

    const first = row('sam.friend@example.com');
    expect(within(first).getByText('sam.friend@example.com')).toBeInTheDocument();
    expect(within(first).getByText('3 permissions')).toBeInTheDocument();
    // No avatar service: the initials are drawn here, and no picture is asked of anyone.
    expect(within(first).getByTestId('avatar-initials')).toHaveTextContent('SF');
    expect(first.querySelector('img')).toBeNull();
    const off = within(first).getByRole('img', { name: 'Two-factor authentication disabled' });
    expect(off).toHaveClass('text-red-400');

    const second = row('alex@example.com');
    expect(within(second).getByText('1 permission')).toBeInTheDocument();
    expect(second.querySelector('img')).toHaveAttribute(
      'src',
      'https://avatars.example.com/avatar/0123abcd?s=400',
    );
    expect(within(second).queryByTestId('avatar-initials')).not.toBeInTheDocument();
    const on = within(second).getByRole('img', { name: 'Two-factor authentication enabled' });
    expect(on).not.toHaveClass('text-red-400');

    expect(within(first).getByRole('button', { name: 'Edit sam.friend@example.com' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Delete sam.friend@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New User' })).toBeInTheDocument();
  });

  it('keeps a picture URL that already names its size as it is', async () => {
    serveUsers([subuser({ email: 'kim@example.com', image: 'https://www.gravatar.com/avatar/ab12?s=400' })]);
    openUsers();
    const kim = await screen.findByRole('listitem', { name: 'kim@example.com' });
    expect(kim.querySelector('img')).toHaveAttribute('src', 'https://www.gravatar.com/avatar/ab12?s=400');
  });

  it('shows no edit or delete on the viewer’s own row', async () => {
    serveUsers([self, friend]);
    openUsers(['user.read', 'user.update', 'user.delete', 'control.console']);
    const own = await screen.findByRole('listitem', { name: viewer.email });
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    const other = row('sam.friend@example.com');
    expect(within(other).getByRole('button', { name: 'Edit sam.friend@example.com' })).toBeInTheDocument();
    expect(within(other).getByRole('button', { name: 'Delete sam.friend@example.com' })).toBeInTheDocument();
  });

  it('hides New User without user.create and Delete without user.delete', async () => {
    serveUsers();
    openUsers(['user.read', 'user.update']);
    const first = await screen.findByRole('listitem', { name: 'sam.friend@example.com' });
    expect(within(first).getByRole('button', { name: 'Edit sam.friend@example.com' })).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New User' })).not.toBeInTheDocument();
  });

  it('says so when the server has no subusers', async () => {
    serveUsers([]);
    openUsers();
    expect(await screen.findByText("It looks like you don't have any subusers.")).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Subusers' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New User' })).toBeInTheDocument();
  });

  it('flashes a failed list load under users', async () => {
    panel.on(`GET ${serverApi}/users`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    panel.on('GET /api/client/permissions', () => ({ body: systemPermissionsResponse() }));
    openUsers(['user.create']);
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.queryByRole('button', { name: 'New User' })).not.toBeInTheDocument();
  });

  it('flashes a failed permission catalogue load under users', async () => {
    panel.on(`GET ${serverApi}/users`, () => ({ body: { object: 'list', data: [item(friend)] } }));
    panel.on('GET /api/client/permissions', () =>
      errorEnvelope(429, 'TooManyRequestsHttpException', 'Too Many Attempts.'),
    );
    openUsers();
    expect(await screen.findByText('Too Many Attempts.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Subusers' })).not.toBeInTheDocument();
  });
});

describe('users: create', () => {
  it('opens "Create new subuser" with the email field and a box per category except websocket', async () => {
    serveUsers();
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new subuser' });

    const email = within(dialog).getByLabelText('User Email');
    expect(email).toHaveAccessibleDescription(
      'Enter the email address of the user you wish to invite as a subuser for this server.',
    );
    const groups = within(dialog).getAllByRole('group');
    expect(groups.map((group) => group.querySelector('h3')?.textContent)).toEqual([
      'control',
      'user',
      'file',
      'backup',
      'allocation',
      'startup',
      'database',
      'schedule',
      'settings',
      'activity',
      'mount',
    ]);
    expect(within(dialog).queryByRole('group', { name: 'websocket' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: 'websocket.connect' })).not.toBeInTheDocument();
    const file = within(dialog).getByRole('group', { name: 'file' });
    expect(file).toHaveAccessibleDescription(
      'Work with the server files, in the file manager and over SFTP.',
    );
    expect(checkbox(file, 'file.read-content')).toHaveAccessibleDescription(
      'Open files to read them, and download them.',
    );
    // The owner may give everything: nothing disabled, no notice.
    for (const permission of allPermissions.filter((p) => p !== 'websocket.connect'))
      expect(checkbox(dialog, permission)).toBeEnabled();
    expect(within(dialog).queryByText(notice)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Invite User' })).toBeInTheDocument();
  });

  it('invites the email with the ticked permissions and adds the answer to the list', async () => {
    serveUsers([]);
    panel.on(`POST ${serverApi}/users`, (request) => {
      const body = request.body as { email: string; permissions: string[] };
      return {
        body: item(subuser({ email: body.email, permissions: [...body.permissions, 'websocket.connect'] })),
      };
    });
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new subuser' });
    await user.type(within(dialog).getByLabelText('User Email'), 'new.friend@example.com');
    await user.click(checkbox(dialog, 'control.console'));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select every file permission' }));
    await user.click(within(dialog).getByRole('button', { name: 'Invite User' }));

    const added = await screen.findByRole('listitem', { name: 'new.friend@example.com' });
    expect(within(added).getByText('8 permissions')).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/users').map((request) => request.body)).toEqual([
      {
        email: 'new.friend@example.com',
        permissions: [
          'control.console',
          'file.create',
          'file.read',
          'file.read-content',
          'file.update',
          'file.delete',
          'file.archive',
          'file.sftp',
        ],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('toggles a whole category on and off', async () => {
    serveUsers();
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new subuser' });
    const group = within(dialog).getByRole('group', { name: 'backup' });
    const toggle = within(group).getByRole('checkbox', { name: 'Select every backup permission' });
    const boxes = ['backup.create', 'backup.read', 'backup.delete', 'backup.download', 'backup.restore'];

    await user.click(checkbox(group, 'backup.read'));
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    for (const permission of boxes) expect(checkbox(group, permission)).toBeChecked();
    expect(toggle).toBeChecked();
    await user.click(checkbox(group, 'backup.delete'));
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await user.click(toggle);
    for (const permission of boxes) expect(checkbox(group, permission)).not.toBeChecked();
    // Other categories are untouched.
    expect(checkbox(dialog, 'file.read')).not.toBeChecked();
  });

  it('asks for a valid email before sending anything', async () => {
    serveUsers();
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new subuser' });
    await user.click(within(dialog).getByRole('button', { name: 'Invite User' }));
    expect(await within(dialog).findByText(subuserFormMessages.email)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('User Email'), `${'a'.repeat(185)}@example.com`);
    expect(await within(dialog).findByText(subuserFormMessages.emailMax)).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/users')).toHaveLength(0);
  });

  it('shows a refused invitation inside the modal, spinner gone, scrolled to its top', async () => {
    serveUsers();
    panel.on(`POST ${serverApi}/users`, () => ({
      ...errorEnvelope(400, 'ServerSubuserExistsException', subuserMessages.exists),
      delayMs: 300,
    }));
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create new subuser' });
    await user.type(within(dialog).getByLabelText('User Email'), 'sam.friend@example.com');
    await user.click(checkbox(dialog, 'file.read'));
    await user.click(within(dialog).getByRole('button', { name: 'Invite User' }));

    // While the panel answers, the spinner covers the modal.
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Loading');
    const flash = await within(dialog).findByText(subuserMessages.exists);
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Invite User' })).toBeEnabled();
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(dialog);
    // Inside the modal only: the page's flash area stays empty, and what was typed stays.
    expect(screen.getAllByText(subuserMessages.exists)).toHaveLength(1);
    expect(within(dialog).getByLabelText('User Email')).toHaveValue('sam.friend@example.com');
    expect(checkbox(dialog, 'file.read')).toBeChecked();
  });
});

describe('users: modify and view', () => {
  it('lets the owner modify a subuser and saves the permissions alone', async () => {
    serveUsers();
    panel.on(`POST ${serverApi}/users/uuid-sam.friend`, (request) => ({
      body: item({ ...friend, permissions: (request.body as { permissions: string[] }).permissions }),
    }));
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'Edit sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Modify permissions for sam.friend@example.com',
    });
    expect(within(dialog).queryByLabelText('User Email')).not.toBeInTheDocument();
    expect(checkbox(dialog, 'file.read')).toBeChecked();
    expect(checkbox(dialog, 'file.update')).toBeChecked();
    expect(checkbox(dialog, 'file.delete')).not.toBeChecked();

    await user.click(checkbox(dialog, 'file.update'));
    await user.click(checkbox(dialog, 'backup.read'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo(panel, 'POST', '/users/uuid-sam.friend').map((r) => r.body)).toEqual([
      { permissions: ['control.console', 'file.read', 'websocket.connect', 'backup.read'] },
    ]);
    expect(within(row('sam.friend@example.com')).getByText('3 permissions')).toBeInTheDocument();
  });

  it('lets a subuser tick only what they hold themselves, and says so', async () => {
    serveUsers();
    const held = ['user.read', 'user.update', 'file.read', 'file.delete', 'control.console'];
    const { user } = openUsers(held);
    await user.click(await screen.findByRole('button', { name: 'Edit sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Modify permissions for sam.friend@example.com',
    });
    expect(within(dialog).getByText(notice)).toBeInTheDocument();

    for (const permission of allPermissions.filter((p) => p !== 'websocket.connect')) {
      if (held.includes(permission)) expect(checkbox(dialog, permission)).toBeEnabled();
      else expect(checkbox(dialog, permission)).toBeDisabled();
    }
    // Held by the subuser but not by the viewer: shown ticked, and left as it is.
    expect(checkbox(dialog, 'file.update')).toBeChecked();
    expect(checkbox(dialog, 'file.update')).toBeDisabled();

    // The category toggle sets only what the viewer may set; categories with none have no toggle.
    const file = within(dialog).getByRole('group', { name: 'file' });
    await user.click(within(file).getByRole('checkbox', { name: 'Select every file permission' }));
    expect(checkbox(file, 'file.delete')).toBeChecked();
    expect(checkbox(file, 'file.create')).not.toBeChecked();
    const backup = within(dialog).getByRole('group', { name: 'backup' });
    expect(within(backup).queryByRole('checkbox', { name: /^Select every/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('opens a read-only "View permissions for" without user.update', async () => {
    serveUsers();
    const { user } = openUsers(['user.read', 'user.create', 'file.read']);
    const first = await screen.findByRole('listitem', { name: 'sam.friend@example.com' });
    expect(within(first).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    await user.click(within(first).getByRole('button', { name: 'View sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'View permissions for sam.friend@example.com',
    });
    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes).toHaveLength(allPermissions.length - 1);
    for (const box of boxes) expect(box).toBeDisabled();
    expect(checkbox(dialog, 'file.read')).toBeChecked();
    expect(checkbox(dialog, 'control.console')).toBeChecked();
    expect(within(dialog).queryByRole('checkbox', { name: /^Select every/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(notice)).toBeInTheDocument();
  });

  it('shows no notice to a root admin', async () => {
    serveUsers();
    // What the panel answers a root admin who is not the owner: every permission, admin ones after `*`.
    const { user } = openUsers(['*', 'admin.websocket.errors'], { rootAdmin: true });
    await user.click(await screen.findByRole('button', { name: 'Edit sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Modify permissions for sam.friend@example.com',
    });
    expect(within(dialog).queryByText(notice)).not.toBeInTheDocument();
    expect(checkbox(dialog, 'settings.reinstall')).toBeEnabled();
  });

  it('shows a refused save inside the modal and keeps it open', async () => {
    serveUsers();
    panel.on(`POST ${serverApi}/users/uuid-sam.friend`, () =>
      errorEnvelope(403, 'HttpForbiddenException', subuserMessages.cannotAssign),
    );
    const { user } = openUsers(['user.read', 'user.update', 'file.read', 'file.delete', 'control.console']);
    await user.click(await screen.findByRole('button', { name: 'Edit sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Modify permissions for sam.friend@example.com',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(subuserMessages.cannotAssign)).toBeInTheDocument();
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
    expect(scrollIntoView.mock.contexts[0]).toBe(dialog);
    // The list is as it was.
    expect(within(row('sam.friend@example.com')).getByText('3 permissions')).toBeInTheDocument();
  });
});

describe('users: delete', () => {
  it('asks, then removes the subuser', async () => {
    serveUsers();
    panel.on(`DELETE ${serverApi}/users/uuid-sam.friend`, () => ({ status: 204 }));
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'Delete sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this subuser?' });
    expect(dialog).toHaveTextContent(
      'Are you sure you wish to remove sam.friend@example.com? They will have all access to this server revoked immediately.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Yes, remove subuser' }));

    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'sam.friend@example.com' })).not.toBeInTheDocument(),
    );
    expect(requestsTo(panel, 'DELETE', '/users/uuid-sam.friend')).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'alex@example.com' })).toBeInTheDocument();
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    serveUsers();
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'Delete sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this subuser?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo(panel, 'DELETE', '/users/uuid-sam.friend')).toHaveLength(0);
    expect(row('sam.friend@example.com')).toBeInTheDocument();
  });

  it('flashes a refused delete on the page and keeps the row', async () => {
    serveUsers();
    panel.on(`DELETE ${serverApi}/users/uuid-sam.friend`, () =>
      errorEnvelope(403, 'AccessDeniedHttpException', 'This action is unauthorized.'),
    );
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: 'Delete sam.friend@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this subuser?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, remove subuser' }));
    const flash = await screen.findByText('This action is unauthorized.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(row('sam.friend@example.com')).toBeInTheDocument();
  });
});
