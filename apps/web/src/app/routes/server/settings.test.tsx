import { serverSettingsMessages } from '@aerie/shared/server-settings/server-settings-bodies';
import { serverSettingsFormMessages } from '@aerie/shared/server-settings/server-settings-forms';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser } from '@/testing/render-app';
import { serverDetail } from '@/testing/server-fixtures';
import { openServerPage, pageServer, requestsTo, serverApi } from '@/testing/server-page';
import { errorEnvelope } from '@/testing/test-server';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const openSettings = (options: Parameters<typeof openServerPage>[2] = {}) =>
  openServerPage(panel, 'settings', { user: pageUser({ username: 'casey' }), ...options });

describe('server settings: details', () => {
  it('shows the SFTP details with the account username and the debug information', async () => {
    openSettings();
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(document.title).toBe('Skyblock | Settings');
    expect(screen.getByText('SFTP Details')).toBeInTheDocument();
    expect(screen.getByText('sftp://node.example.com:2022')).toBeInTheDocument();
    expect(screen.getByText('casey.abcd1234')).toBeInTheDocument();
    expect(
      screen.getByText('Your SFTP password is the same as the password you use to access this panel.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Launch SFTP' })).toHaveAttribute(
      'href',
      'sftp://casey.abcd1234@node.example.com:2022',
    );
    expect(screen.getByText('Debug Information')).toBeInTheDocument();
    expect(screen.getByText('Frankfurt 1')).toBeInTheDocument();
    expect(screen.getByText(pageServer.uuid as string)).toBeInTheDocument();
  });

  it('shows a subuser with file.sftp alone the SFTP and debug boxes, and no rename or reinstall', async () => {
    openSettings({ permissions: ['file.sftp'] });
    expect(await screen.findByText('sftp://node.example.com:2022')).toBeInTheDocument();
    expect(screen.getByText('Debug Information')).toBeInTheDocument();
    expect(screen.queryByLabelText('Server Name')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reinstall Server' })).not.toBeInTheDocument();
  });

  it('hides the SFTP details without file.sftp', async () => {
    openSettings({ permissions: ['settings.rename'] });
    expect(await screen.findByLabelText('Server Name')).toBeInTheDocument();
    expect(screen.queryByText('SFTP Details')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Launch SFTP' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reinstall Server' })).not.toBeInTheDocument();
  });
});

describe('server settings: rename', () => {
  it('renames the server and the page title follows at once', async () => {
    panel.on(`POST ${serverApi}/settings/rename`, () => ({ status: 204 }));
    const { user } = openSettings({ server: { description: 'Islands' } });
    const name = await screen.findByLabelText('Server Name');
    expect(name).toHaveValue('Skyblock');
    expect(screen.getByLabelText('Server Description')).toHaveValue('Islands');

    await user.clear(name);
    await user.type(name, 'Skyblock 2');
    await user.clear(screen.getByLabelText('Server Description'));
    await user.type(screen.getByLabelText('Server Description'), 'More islands');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(document.title).toBe('Skyblock 2 | Settings'));
    expect(requestsTo(panel, 'POST', '/settings/rename').map((request) => request.body)).toEqual([
      { name: 'Skyblock 2', description: 'More islands' },
    ]);
    // The change came from the answer alone: the server was not loaded again.
    expect(requestsTo(panel, 'GET', '')).toHaveLength(1);
  });

  it('wants a name before sending', async () => {
    const { user } = openSettings();
    const name = await screen.findByLabelText('Server Name');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(serverSettingsFormMessages.nameRequired)).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/settings/rename')).toEqual([]);
  });

  it('shows a refused rename as an error flash and keeps the name', async () => {
    panel.on(`POST ${serverApi}/settings/rename`, () =>
      errorEnvelope(
        409,
        'ServerStateConflictException',
        'This server is currently suspended and the functionality requested is unavailable.',
      ),
    );
    const { user } = openSettings();
    const name = await screen.findByLabelText('Server Name');
    await user.type(name, ' 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const flash = await screen.findByRole('alert');
    expect(flash).toHaveTextContent('Error');
    expect(flash).toHaveTextContent(
      'This server is currently suspended and the functionality requested is unavailable.',
    );
    expect(document.title).toBe('Skyblock | Settings');
  });
});

describe('server settings: reinstall', () => {
  it('asks first, then says the reinstall began and shows the installer view while it runs', async () => {
    let installing = false;
    panel.on(`POST ${serverApi}/settings/reinstall`, () => {
      installing = true;
      return { status: 202, body: [] };
    });
    const { user } = openSettings();
    await user.click(await screen.findByRole('button', { name: 'Reinstall Server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm server reinstallation' });
    expect(dialog).toHaveTextContent(
      'Your server will be stopped and some files may be deleted or modified during this process, are you sure you wish to continue?',
    );
    // The panel answers the server as installing from now on (a little late, so the notice can be seen).
    panel.on(`GET ${serverApi}`, () => ({
      delayMs: 300,
      body: serverDetail({ ...pageServer, status: installing ? 'installing' : undefined }),
    }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, reinstall server' }));

    expect(await screen.findByText(serverSettingsMessages.reinstallStarted)).toBeInTheDocument();
    expect(requestsTo(panel, 'POST', '/settings/reinstall')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'Running Installer' })).toBeInTheDocument();
    expect(screen.queryByText('Debug Information')).not.toBeInTheDocument();
    // The notice stays in view above the installer's, rather than vanishing with the page under it.
    expect(screen.getByText(serverSettingsMessages.reinstallStarted)).toBeInTheDocument();
  });

  it('shows a failed reinstall as an error flash', async () => {
    panel.on(`POST ${serverApi}/settings/reinstall`, () =>
      errorEnvelope(502, 'HttpException', 'The daemon could not be reached.'),
    );
    const { user } = openSettings();
    await user.click(await screen.findByRole('button', { name: 'Reinstall Server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm server reinstallation' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, reinstall server' }));
    const flash = await screen.findByText('The daemon could not be reached.');
    expect(flash.closest('[role="alert"]')).toHaveTextContent('Error');
    expect(screen.getByText('Debug Information')).toBeInTheDocument();
  });
});
