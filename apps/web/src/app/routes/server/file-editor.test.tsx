import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fileList, fileObject, filesApi, openFilesPage } from '@/testing/files-page';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';

// The first test compiles CodeMirror's chunk; a busy two-core machine needs more than 5 s.
vi.setConfig({ testTimeout: 30_000 });

const panel = setUpPanelTestServer();

beforeAll(() => {
  // jsdom lays nothing out; CodeMirror measures text ranges after each update.
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

const writes = () => panel.requests.filter((request) => request.url.startsWith(`${filesApi}/write`));
const editorText = () => screen.getByTestId('code-editor').querySelector('.cm-content')?.textContent ?? '';

describe('file editor', () => {
  it('loads the raw text, picks the language from the name, and saves with Ctrl-S as text/plain', async () => {
    panel.on(`GET ${filesApi}/contents`, () => ({ raw: '{"motd": "Hello"}' }));
    panel.on(`POST ${filesApi}/write`, () => ({ status: 204 }));
    openFilesPage(panel, { path: '/server/abcd1234/files/edit#/config/settings.json' });
    await waitFor(() => expect(editorText()).toBe('{"motd": "Hello"}'), { timeout: 15_000 });
    expect(panel.requests.find((request) => request.url.startsWith(`${filesApi}/contents`))?.url).toBe(
      `${filesApi}/contents?file=%2Fconfig%2Fsettings.json`,
    );
    expect(screen.getByRole('navigation', { name: 'Current directory' })).toHaveTextContent(
      '/home/container/config/settings.json',
    );
    // The language list loads lazily beside the editor: on a busy machine it arrives after the text.
    await waitFor(() => expect(screen.getByLabelText('Language')).toHaveDisplayValue('JSON'));

    const content = screen.getByTestId('code-editor').querySelector('.cm-content') as HTMLElement;
    fireEvent.keyDown(content, { key: 's', code: 'KeyS', ctrlKey: true });
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.url).toBe(`${filesApi}/write?file=%2Fconfig%2Fsettings.json`);
    expect(writes()[0]?.headers['content-type']).toBe('text/plain');
    // The test server parses JSON bodies; the raw text went out unchanged.
    expect(writes()[0]?.body).toEqual({ motd: 'Hello' });
  });

  it.each([
    ['/Dockerfile', 'Dockerfile'],
    ['/plugins/config.yml', 'YAML'],
    ['/start.sh', 'Shell'],
    ['/notes.unknownext', 'Plain Text'],
  ])('picks the mode of %s: %s', async (path, mode) => {
    panel.on(`GET ${filesApi}/contents`, () => ({ raw: 'x' }));
    openFilesPage(panel, { path: `/server/abcd1234/files/edit#${path}` });
    await waitFor(() => expect(screen.getByLabelText('Language')).toHaveDisplayValue(mode), {
      timeout: 15_000,
    });
  });

  it('saves with the button', async () => {
    panel.on(`GET ${filesApi}/contents`, () => ({ raw: 'motd=Hi' }));
    panel.on(`POST ${filesApi}/write`, () => ({ status: 204 }));
    const { user } = openFilesPage(panel, { path: '/server/abcd1234/files/edit#/server.properties' });
    await waitFor(() => expect(editorText()).toBe('motd=Hi'), { timeout: 15_000 });
    await user.click(screen.getByRole('button', { name: 'Save Content' }));
    await waitFor(() => expect(writes()[0]?.body).toBe('motd=Hi'));
  });

  it('shows an error page with Back when the content cannot be loaded', async () => {
    panel.on(`GET ${filesApi}/contents`, () => ({
      status: 400,
      body: {
        errors: [
          {
            code: 'FileSizeTooLargeException',
            status: '400',
            detail: 'The file you are attempting to open is too large to view in the file editor.',
          },
        ],
      },
    }));
    panel.on(`GET ${filesApi}/list`, () => ({ body: fileList([fileObject({ name: 'huge.log' })]) }));
    const { user, router } = openFilesPage(panel, { path: '/server/abcd1234/files/edit#/logs/huge.log' });
    expect(
      await screen.findByText('The file you are attempting to open is too large to view in the file editor.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    expect(await screen.findByText('huge.log')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234/files');
    expect(router.state.location.hash).toBe('#/logs');
  });

  it('is read-only without file.update', async () => {
    panel.on(`GET ${filesApi}/contents`, () => ({ raw: 'motd=Hi' }));
    openFilesPage(panel, {
      path: '/server/abcd1234/files/edit#/server.properties',
      permissions: ['file.read', 'file.read-content'],
    });
    await waitFor(() => expect(editorText()).toBe('motd=Hi'), { timeout: 15_000 });
    expect(screen.getByText('You can view this file, but not change it.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Content' })).not.toBeInTheDocument();
    expect(screen.getByTestId('code-editor').querySelector('.cm-content')).toHaveAttribute(
      'contenteditable',
      'false',
    );
  });
});

describe('new file', () => {
  it('asks for the name with a preview under /home/container/, writes it, then switches to the edit URL', async () => {
    panel.on(`POST ${filesApi}/write`, () => ({ status: 204 }));
    panel.on(`GET ${filesApi}/contents`, () => ({ raw: '' }));
    const { user, router } = openFilesPage(panel, { path: '/server/abcd1234/files/new#/plugins' });
    await waitFor(
      () => expect(screen.getByTestId('code-editor').querySelector('.cm-content')).not.toBeNull(),
      {
        timeout: 15_000,
      },
    );
    await user.click(screen.getByRole('button', { name: 'Create File' }));
    const dialog = await screen.findByRole('dialog', { name: 'New File' });
    await user.click(within(dialog).getByRole('button', { name: 'Create File' }));
    expect(await within(dialog).findByText('A file name must be provided.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('File Name'), 'motd.txt');
    expect(dialog).toHaveTextContent('This file will be created as /home/container/plugins/motd.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Create File' }));
    await waitFor(() => expect(writes()[0]?.url).toBe(`${filesApi}/write?file=%2Fplugins%2Fmotd.txt`));
    expect(writes()[0]?.headers['content-type']).toBe('text/plain');
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/abcd1234/files/edit'));
    expect(router.state.location.hash).toBe('#/plugins/motd.txt');
    expect(await screen.findByRole('button', { name: 'Save Content' })).toBeInTheDocument();
  });

  it('keeps the directory hash on the New File link', async () => {
    panel.on(`GET ${filesApi}/list`, () => ({ body: fileList([]) }));
    openFilesPage(panel, { path: '/server/abcd1234/files#/plugins' });
    expect(await screen.findByRole('link', { name: 'New File' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files/new#/plugins',
    );
  });
});
