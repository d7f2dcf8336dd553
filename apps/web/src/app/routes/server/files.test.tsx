import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { archiveTimeouts } from '@/features/files/api/files';
import { browser } from '@/lib/browser';
import { fileList, fileObject, filesApi, listedNames, openFilesPage } from '@/testing/files-page';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();

const serve = (files: ReturnType<typeof fileObject>[]) =>
  panel.on(`GET ${filesApi}/list`, () => ({ body: fileList(files) }));
const row = (name: string) =>
  screen.getAllByTestId('file-row').find((element) => within(element).queryByText(name)) as HTMLElement;
const requestsTo = (method: string, path: string) =>
  panel.requests.filter(
    (request) => request.method === method && request.url.startsWith(`${filesApi}${path}`),
  );
const openMenu = async (user: ReturnType<typeof openFilesPage>['user'], name: string, action: string) => {
  await user.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  await user.click(screen.getByRole('menuitem', { name: action }));
};

describe('file manager: listing', () => {
  it('lists directories first, then files by name, with size, mode and modified time', async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    serve([
      fileObject({ name: 'zeta.txt', size: 1536, modified_at: hoursAgo(3) }),
      fileObject({ name: 'world', is_file: false }),
      fileObject({
        name: 'alpha.jar',
        size: 1024 ** 2 * 5,
        mimetype: 'application/java-archive',
        modified_at: '2024-03-05T10:00:00Z',
      }),
      fileObject({ name: 'config', is_file: false }),
    ]);
    openFilesPage(panel);
    await screen.findByText('zeta.txt');
    expect(listedNames()).toEqual(['config', 'world', 'alpha.jar', 'zeta.txt']);
    expect(within(row('zeta.txt')).getByTestId('file-size')).toHaveTextContent('1.5 kB');
    expect(within(row('alpha.jar')).getByTestId('file-size')).toHaveTextContent('5 MB');
    expect(within(row('zeta.txt')).getByTestId('file-mode')).toHaveTextContent('-rw-r--r--');
    expect(within(row('zeta.txt')).getByTestId('file-modified')).toHaveTextContent('about 3 hours ago');
    expect(within(row('alpha.jar')).getByTestId('file-modified')).toHaveTextContent('Mar 5th, 2024');
    expect(requestsTo('GET', '/list')[0]?.url).toBe(`${filesApi}/list?directory=%2F`);
  });

  it('shows the first 250 entries with the notice above the cap', async () => {
    serve(
      Array.from({ length: 260 }, (_, i) => fileObject({ name: `file-${String(i).padStart(3, '0')}.txt` })),
    );
    openFilesPage(panel);
    expect(
      await screen.findByText(
        'This directory is too large to display in the browser, limiting the output to the first 250 files.',
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('file-row')).toHaveLength(250);
  });

  it('says when the directory is empty', async () => {
    serve([]);
    openFilesPage(panel);
    expect(await screen.findByText('This directory seems to be empty.')).toBeInTheDocument();
  });

  it('shows an error page with Retry when the listing fails, and lists after a retry', async () => {
    panel.on(`GET ${filesApi}/list`, () => ({
      status: 409,
      body: {
        errors: [
          {
            code: 'ServerStateConflictException',
            status: '409',
            detail: 'This server is currently suspended.',
          },
        ],
      },
    }));
    const { user } = openFilesPage(panel);
    expect(await screen.findByText('This server is currently suspended.')).toBeInTheDocument();
    serve([fileObject({ name: 'server.properties' })]);
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('server.properties')).toBeInTheDocument();
  });
});

describe('file manager: navigation', () => {
  it('opens folders through the hash and links every crumb to its directory', async () => {
    panel.on(`GET ${filesApi}/list`, (request) => {
      const directory = new URL(request.url, panel.url).searchParams.get('directory');
      if (directory === '/plugins')
        return { body: fileList([fileObject({ name: 'Essentials', is_file: false })]) };
      if (directory === '/plugins/Essentials')
        return { body: fileList([fileObject({ name: 'config.yml' })]) };
      return { body: fileList([fileObject({ name: 'plugins', is_file: false })]) };
    });
    const { user, router } = openFilesPage(panel);
    await user.click(await screen.findByRole('link', { name: 'plugins' }));
    await user.click(await screen.findByRole('link', { name: 'Essentials' }));
    expect(await screen.findByText('config.yml')).toBeInTheDocument();
    expect(router.state.location.hash).toBe('#/plugins/Essentials');
    const crumbs = screen.getByRole('navigation', { name: 'Current directory' });
    expect(crumbs).toHaveTextContent('/home/container/plugins/Essentials/');
    await user.click(within(crumbs).getByRole('link', { name: 'plugins' }));
    expect(await screen.findByRole('link', { name: 'Essentials' })).toBeInTheDocument();
    await user.click(within(crumbs).getByRole('link', { name: 'container' }));
    expect(await screen.findByRole('link', { name: 'plugins' })).toBeInTheDocument();
    expect(router.state.location.hash).toBe('#/');
  });

  it('opens the listing of the directory in the URL hash', async () => {
    serve([fileObject({ name: 'latest.log' })]);
    openFilesPage(panel, { path: '/server/abcd1234/files#/logs' });
    await screen.findByText('latest.log');
    expect(requestsTo('GET', '/list')[0]?.url).toBe(`${filesApi}/list?directory=%2Flogs`);
  });
});

describe('file manager: selection and bulk delete', () => {
  it('names 15 files then "+ N other(s)", deletes them all, and clears the selection on a directory change', async () => {
    const names = Array.from({ length: 17 }, (_, i) => `log-${String(i).padStart(2, '0')}.txt`);
    serve([fileObject({ name: 'logs', is_file: false }), ...names.map((name) => fileObject({ name }))]);
    panel.on(`POST ${filesApi}/delete`, () => ({ status: 204 }));
    const { user } = openFilesPage(panel);
    await screen.findByText('log-00.txt');
    for (const name of names) fireEvent.click(screen.getByRole('checkbox', { name: `Select ${name}` }));
    const bar = screen.getByRole('toolbar', { name: '17 files selected' });
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete files' });
    const listed = within(within(dialog).getByTestId('delete-file-names')).getAllByRole('listitem');
    expect(listed.map((item) => item.textContent)).toEqual([...names.slice(0, 15), '+ 2 other(s)']);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(requestsTo('POST', '/delete')).toHaveLength(1));
    expect(requestsTo('POST', '/delete')[0]?.body).toEqual({ root: '/', files: names });
    await waitFor(() => expect(screen.queryByText('log-00.txt')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select logs' }));
    expect(screen.getByRole('toolbar', { name: '1 file selected' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'logs' }));
    await waitFor(() => expect(screen.queryByRole('toolbar')).not.toBeInTheDocument());
  });
});

describe('file manager: row actions', () => {
  beforeEach(() => {
    serve([
      fileObject({ name: 'plugins', is_file: false }),
      fileObject({ name: 'server.properties' }),
      fileObject({ name: 'world.zip', mimetype: 'application/zip' }),
    ]);
  });

  it('renames and moves with the relative target', async () => {
    panel.on(`PUT ${filesApi}/rename`, () => ({ status: 204 }));
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    await openMenu(user, 'server.properties', 'Rename');
    const field = screen.getByLabelText('File Name');
    await user.clear(field);
    await user.type(field, 'old.properties{Enter}');
    expect(await screen.findByText('old.properties')).toBeInTheDocument();
    expect(requestsTo('PUT', '/rename')[0]?.body).toEqual({
      root: '/',
      files: [{ from: 'server.properties', to: 'old.properties' }],
    });
  });

  it('shows a failed rename at once, then reloads the list and flashes the error', async () => {
    panel.on(`PUT ${filesApi}/rename`, () => ({
      status: 500,
      delayMs: 300,
      body: { errors: [{ code: 'HttpException', status: '500', detail: 'The daemon refused the rename.' }] },
    }));
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    await openMenu(user, 'server.properties', 'Rename');
    const field = screen.getByLabelText('File Name');
    await user.clear(field);
    await user.type(field, 'renamed.txt{Enter}');
    expect(await screen.findByText('renamed.txt')).toBeInTheDocument();
    expect(await screen.findByText('The daemon refused the rename.')).toBeInTheDocument();
    expect(await screen.findByText('server.properties')).toBeInTheDocument();
    expect(screen.queryByText('renamed.txt')).not.toBeInTheDocument();
    expect(requestsTo('GET', '/list')).toHaveLength(2);
  });

  it('removes a deleted file at once and brings it back by reloading when the delete fails', async () => {
    panel.on(`POST ${filesApi}/delete`, () => ({
      status: 502,
      delayMs: 300,
      body: { errors: [{ code: 'x', status: '502', detail: 'Daemon down.' }] },
    }));
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    await openMenu(user, 'server.properties', 'Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete file' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('server.properties')).not.toBeInTheDocument());
    expect(await screen.findByText('Daemon down.')).toBeInTheDocument();
    expect(await screen.findByText('server.properties')).toBeInTheDocument();
    expect(requestsTo('POST', '/delete')[0]?.body).toEqual({ root: '/', files: ['server.properties'] });
  });

  it('sends copy, chmod, archive and unarchive with their bodies', async () => {
    for (const path of ['copy', 'chmod', 'decompress'])
      panel.on(`POST ${filesApi}/${path}`, () => ({ status: 204 }));
    panel.on(`POST ${filesApi}/compress`, () => ({ body: fileObject({ name: 'archive.tar.gz' }) }));
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    await openMenu(user, 'server.properties', 'Copy');
    await waitFor(() =>
      expect(requestsTo('POST', '/copy')[0]?.body).toEqual({ location: '/server.properties' }),
    );
    await openMenu(user, 'server.properties', 'Permissions');
    const mode = screen.getByLabelText('File Mode');
    expect(mode).toHaveValue('644');
    await user.clear(mode);
    await user.type(mode, '600{Enter}');
    await waitFor(() =>
      expect(requestsTo('POST', '/chmod')[0]?.body).toEqual({
        root: '/',
        files: [{ file: 'server.properties', mode: '600' }],
      }),
    );
    expect(within(row('server.properties')).getByTestId('file-mode')).toHaveTextContent('-rw-------');
    await openMenu(user, 'plugins', 'Archive');
    await waitFor(() =>
      expect(requestsTo('POST', '/compress')[0]?.body).toEqual({ root: '/', files: ['plugins'] }),
    );
    await openMenu(user, 'world.zip', 'Unarchive');
    await waitFor(() =>
      expect(requestsTo('POST', '/decompress')[0]?.body).toEqual({ root: '/', file: 'world.zip' }),
    );
  });

  it('offers Unarchive only for archives', async () => {
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    await user.click(screen.getByRole('button', { name: 'Actions for server.properties' }));
    expect(screen.queryByRole('menuitem', { name: 'Unarchive' })).not.toBeInTheDocument();
  });

  it('downloads through the signed URL', async () => {
    panel.on(`GET ${filesApi}/download`, () => ({
      body: {
        object: 'signed_url',
        attributes: { url: 'https://node.example.com:8080/download/file?token=abc' },
      },
    }));
    const loadPage = vi.spyOn(browser, 'loadPage').mockImplementation(() => undefined);
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    await openMenu(user, 'server.properties', 'Download');
    await waitFor(() =>
      expect(loadPage).toHaveBeenCalledWith('https://node.example.com:8080/download/file?token=abc'),
    );
    expect(requestsTo('GET', '/download')[0]?.url).toBe(`${filesApi}/download?file=%2Fserver.properties`);
  });
});

describe('file manager: the row menu from the keyboard', () => {
  it('opens on Enter at its first item, moves with the arrows, and gives focus back to its button after the dialog', async () => {
    serve([fileObject({ name: 'server.properties' })]);
    const { user } = openFilesPage(panel);
    await screen.findByText('server.properties');
    const button = screen.getByRole('button', { name: 'Actions for server.properties' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menuitem', { name: 'Rename' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Move' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Rename' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Rename' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Actions for server.properties' })).toHaveFocus();
  });
});

describe('file manager: archive time-outs', () => {
  const saved = { ...archiveTimeouts };
  afterEach(() => Object.assign(archiveTimeouts, saved));

  it.each([
    [
      'Archive',
      'compress',
      'plugins',
      'It looks like this archive is taking a long time to generate. It will appear once completed.',
    ],
    [
      'Unarchive',
      'decompress',
      'world.zip',
      'It looks like this archive is taking a long time to be unarchived. Once completed the unarchived files will appear.',
    ],
  ])('%s shows its time-out message', async (action, path, name, message) => {
    archiveTimeouts.compressMs = 100;
    archiveTimeouts.decompressMs = 100;
    serve([
      fileObject({ name: 'plugins', is_file: false }),
      fileObject({ name: 'world.zip', mimetype: 'application/zip' }),
    ]);
    panel.on(`POST ${filesApi}/${path}`, () => ({ status: 204, delayMs: 1_000 }));
    const { user } = openFilesPage(panel);
    await screen.findByText('world.zip');
    await openMenu(user, name, action);
    expect(await screen.findByText(message)).toBeInTheDocument();
  });
});

describe('file manager: create directory and upload', () => {
  it('asks for a directory name, then creates it in the current directory', async () => {
    serve([]);
    panel.on(`POST ${filesApi}/create-folder`, () => ({ status: 204 }));
    const { user } = openFilesPage(panel, { path: '/server/abcd1234/files#/plugins' });
    await screen.findByText('This directory seems to be empty.');
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Directory' });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A valid directory name must be provided.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'backups');
    expect(dialog).toHaveTextContent('/home/container/plugins/backups');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(requestsTo('POST', '/create-folder')[0]?.body).toEqual({ root: '/plugins', name: 'backups' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('uploads each file as multipart `files` to the signed URL with the directory', async () => {
    serve([]);
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': '*',
    };
    panel.on('OPTIONS /upload/file', () => ({ status: 204, headers: cors }));
    panel.on('POST /upload/file', () => ({ status: 200, raw: '', headers: cors }));
    panel.on(`GET ${filesApi}/upload`, () => ({
      body: { object: 'signed_url', attributes: { url: `${panel.url}/upload/file?token=xyz` } },
    }));
    const { user } = openFilesPage(panel, { path: '/server/abcd1234/files#/plugins' });
    await screen.findByText('This directory seems to be empty.');
    await user.upload(
      screen.getByTestId('upload-input'),
      new File(['motd=Hello'], 'server.properties', { type: 'text/plain' }),
    );
    await waitFor(() =>
      expect(
        panel.requests.some((request) => request.method === 'POST' && request.url.startsWith('/upload/file')),
      ).toBe(true),
    );
    const sent = panel.requests.find(
      (request) => request.method === 'POST' && request.url.startsWith('/upload/file'),
    );
    expect(sent?.url).toBe('/upload/file?token=xyz&directory=%2Fplugins');
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.body).toMatch(/name="files"; filename="server.properties"/);
    expect(sent?.body).toContain('motd=Hello');
    await waitFor(() => expect(requestsTo('GET', '/list').length).toBeGreaterThan(1));
  });

  it('uploads several files, each through its own signed URL (the daemon takes each URL once)', async () => {
    serve([]);
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
    let issued = 0;
    const used = new Set<string>();
    panel.on('OPTIONS /upload/file', () => ({ status: 204, headers: cors }));
    panel.on('POST /upload/file', (request) => {
      const token = new URL(request.url, panel.url).searchParams.get('token') ?? '';
      if (used.has(token)) {
        return {
          status: 403,
          body: { error: 'jwt: this link has already been used, request a new one' },
          headers: cors,
        };
      }
      used.add(token);
      return { status: 200, raw: '', headers: cors };
    });
    panel.on(`GET ${filesApi}/upload`, () => {
      issued += 1;
      return {
        body: { object: 'signed_url', attributes: { url: `${panel.url}/upload/file?token=t${issued}` } },
      };
    });
    const { user } = openFilesPage(panel);
    await screen.findByText('This directory seems to be empty.');
    await user.upload(screen.getByTestId('upload-input'), [
      new File(['a'], 'a.txt'),
      new File(['b'], 'b.txt'),
      new File(['c'], 'c.txt'),
    ]);
    await waitFor(() => expect(requestsTo('GET', '/list').length).toBeGreaterThan(1));
    const posts = panel.requests.filter(
      (request) => request.method === 'POST' && request.url.startsWith('/upload/file'),
    );
    expect(posts).toHaveLength(3);
    expect(used.size).toBe(3);
    expect(screen.queryByText(/already been used/)).not.toBeInTheDocument();
  });

  it('uploads files dropped on the page', async () => {
    serve([]);
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
    panel.on('OPTIONS /upload/file', () => ({ status: 204, headers: cors }));
    panel.on('POST /upload/file', () => ({ status: 200, raw: '', headers: cors }));
    panel.on(`GET ${filesApi}/upload`, () => ({
      body: { object: 'signed_url', attributes: { url: `${panel.url}/upload/file?token=t` } },
    }));
    openFilesPage(panel);
    await screen.findByText('This directory seems to be empty.');
    const file = new File(['x'], 'dropped.txt');
    act(() => {
      fireEvent.drop(screen.getByTestId('file-drop-zone'), {
        dataTransfer: { types: ['Files'], files: [file] },
      });
    });
    await waitFor(() =>
      expect(
        panel.requests.find((request) => request.url.startsWith('/upload/file') && request.method === 'POST')
          ?.body,
      ).toMatch(/filename="dropped.txt"/),
    );
  });
});

describe('file manager: permissions', () => {
  it('hides controls without their permission and shows plain names without file.read-content', async () => {
    serve([fileObject({ name: 'plugins', is_file: false }), fileObject({ name: 'server.properties' })]);
    openFilesPage(panel, { permissions: ['file.read'] });
    await screen.findByText('server.properties');
    for (const name of ['New File', 'Upload', 'Create Directory']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('link', { name: 'plugins' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'server.properties' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for server.properties' })).not.toBeInTheDocument();
  });

  it('with file.read-content opens folders and the editor, and shows only permitted actions', async () => {
    serve([
      fileObject({ name: 'plugins', is_file: false }),
      fileObject({ name: 'server.properties' }),
      fileObject({ name: 'icon.png', mimetype: 'image/png' }),
    ]);
    const { user } = openFilesPage(panel, { permissions: ['file.read', 'file.read-content', 'file.delete'] });
    await screen.findByText('server.properties');
    expect(screen.getByRole('link', { name: 'plugins' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files#/plugins',
    );
    expect(screen.getByRole('link', { name: 'server.properties' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files/edit#/server.properties',
    );
    expect(screen.queryByRole('link', { name: 'icon.png' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions for server.properties' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Download', 'Delete']);
  });
});
