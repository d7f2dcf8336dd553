import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fileList, fileObject, filesApi, listedNames, openFilesPage } from '@/testing/files-page';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';

vi.setConfig({ testTimeout: 20_000 });

const panel = setUpPanelTestServer();
const pulls = () => panel.requests.filter((request) => request.url === `${filesApi}/pull`);

describe('file manager: Pull from URL', () => {
  it('asks for a URL and an optional name, pulls into the current directory, then lists the file', async () => {
    let pulled = false;
    panel.on(`GET ${filesApi}/list`, () => ({
      body: fileList(pulled ? [fileObject({ name: 'paper.jar' })] : []),
    }));
    panel.on(`POST ${filesApi}/pull`, () => {
      pulled = true;
      return { status: 204 };
    });
    const { user } = openFilesPage(panel, { path: '/server/abcd1234/files#/plugins' });
    await screen.findByText('This directory seems to be empty.');
    await user.click(screen.getByRole('button', { name: 'Pull from URL' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pull from URL' });
    expect(dialog).toHaveTextContent('The file will be saved in /home/container/plugins');

    // Checked before any request: an http(s) URL, a plain name.
    await user.type(within(dialog).getByLabelText('URL'), 'ftp://example.com/a');
    await user.type(within(dialog).getByLabelText('File Name (optional)'), '../paper.jar');
    await user.click(within(dialog).getByRole('button', { name: 'Pull' }));
    expect(
      await within(dialog).findByText('A valid http:// or https:// URL must be provided.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('A file name cannot contain "/" or "\\", or be "." or "..".'),
    ).toBeInTheDocument();
    expect(pulls()).toEqual([]);

    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), ' https://api.example.com/v2/download ');
    await user.clear(within(dialog).getByLabelText('File Name (optional)'));
    await user.type(within(dialog).getByLabelText('File Name (optional)'), 'paper.jar');
    await user.click(within(dialog).getByRole('button', { name: 'Pull' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(pulls().map((request) => request.body)).toEqual([
      {
        url: 'https://api.example.com/v2/download',
        directory: '/plugins',
        filename: 'paper.jar',
        foreground: true,
      },
    ]);
    await waitFor(() => expect(listedNames()).toEqual(['paper.jar']));
  });

  it('shows the node’s refusal inside the dialog and keeps it open', async () => {
    panel.on(`GET ${filesApi}/list`, () => ({ body: fileList([]) }));
    const detail =
      "An error occurred on the remote host: The URL's host is a loopback address: this node does not download from it.";
    panel.on(`POST ${filesApi}/pull`, () => ({
      status: 400,
      body: { errors: [{ code: 'DaemonConnectionException', status: '400', detail }] },
    }));
    const { user } = openFilesPage(panel);
    await screen.findByText('This directory seems to be empty.');
    await user.click(screen.getByRole('button', { name: 'Pull from URL' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pull from URL' });
    await user.type(within(dialog).getByLabelText('URL'), 'http://localhost/secret');
    await user.click(within(dialog).getByRole('button', { name: 'Pull' }));
    expect(await within(dialog).findByText(detail)).toBeInTheDocument();
    expect(pulls().map((request) => request.body)).toEqual([
      { url: 'http://localhost/secret', directory: '/', foreground: true },
    ]);
  });

  it('is offered only with file.create', async () => {
    panel.on(`GET ${filesApi}/list`, () => ({ body: fileList([fileObject({ name: 'a.txt' })]) }));
    openFilesPage(panel, { permissions: ['file.read'] });
    await screen.findByText('a.txt');
    expect(screen.queryByRole('button', { name: 'Pull from URL' })).not.toBeInTheDocument();
  });
});
