import type { FileObject, FileObjectAttributes } from '@aerie/shared/files/file-wire';
import { screen } from '@testing-library/react';
import { pageUser, renderApp } from '@/testing/render-app';
import { serverDetail } from '@/testing/server-fixtures';
import type { TestServer } from '@/testing/test-server';

export const filesApi = '/api/client/servers/abcd1234/files';

/** A `file_object` as the panel lists it; a directory unless `is_file`. */
export function fileObject(overrides: Partial<FileObjectAttributes> & { name: string }): FileObject {
  const isFile = overrides.is_file ?? true;
  return {
    object: 'file_object',
    attributes: {
      mode: isFile ? '-rw-r--r--' : 'drwxr-xr-x',
      mode_bits: isFile ? '644' : '755',
      size: isFile ? 1024 : 4096,
      is_file: isFile,
      is_symlink: false,
      mimetype: isFile ? 'text/plain; charset=utf-8' : 'inode/directory',
      created_at: '2026-01-01T00:00:00+00:00',
      modified_at: new Date().toISOString(),
      ...overrides,
    },
  };
}

export const fileList = (files: FileObject[]) => ({ object: 'list', data: files });

interface OpenFilesOptions {
  /** Omitted: the owner (every permission). */
  permissions?: string[];
  path?: string;
}

/** Serves the server and renders a files page (the file manager at the root by default). */
export function openFilesPage(
  panel: TestServer,
  { permissions, path = '/server/abcd1234/files' }: OpenFilesOptions = {},
) {
  panel.on('GET /api/client/servers/abcd1234', () => ({
    body: serverDetail(
      { identifier: 'abcd1234', name: 'Skyblock' },
      permissions ? { owner: false, permissions } : { owner: true },
    ),
  }));
  return renderApp(path, { user: pageUser() });
}

/** The names in the listing, top to bottom. */
export const listedNames = () =>
  screen.queryAllByTestId('file-row').map((row) => row.querySelector('a, span.truncate')?.textContent ?? '');
