import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  chmodFiles,
  compressFiles,
  copyFile,
  decompressFile,
  deleteFiles,
  getDownloadUrl,
  renameFiles,
} from '@/features/files/api/files';
import type { FileEntry } from '@/features/files/api/transformers';
import { useFileList } from '@/features/files/hooks/use-file-list';
import { modeString } from '@/features/files/utils/file-mode';
import { joinPath } from '@/features/files/utils/paths';
import { useServer } from '@/features/servers/hooks/use-server';
import { ApiError } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { flashActions } from '@/stores/flash-store';

/** A change shown in the listing at once, and the call that makes it on the server. */
interface OptimisticChange {
  apply: (files: FileEntry[]) => FileEntry[];
  call: () => Promise<unknown>;
}

/** Errors of the file manager show above the listing (spec §8 key `files`). */
export const filesFlashKey = 'files';

const isTimeout = (error: unknown) => error instanceof ApiError && error.code === 'RequestTimeout';

/**
 * The file manager's actions on `directory`. Rename, delete and chmod change the listing at once and reload it if
 * the call fails (spec §4); the others reload it once done.
 */
export function useFileActions(directory: string) {
  const { t } = useTranslation('server');
  const server = useServer();
  const list = useFileList(directory);

  const fail = (error: unknown) => flashActions().clearAndAddHttpError({ key: filesFlashKey, error });
  const start = () => flashActions().clearFlashes(filesFlashKey);

  // Rename, delete and chmod: the cached listing changes in `onMutate` (after any fetch of it in flight is
  // cancelled, so an older answer cannot overwrite the change); a refused call shows why and reloads the listing.
  const change = useMutation({
    mutationFn: ({ call }: OptimisticChange) => call(),
    onMutate: async ({ apply }: OptimisticChange) => {
      start();
      await list.cancel();
      list.mutate(apply);
    },
    onError: (error) => {
      fail(error);
      void list.reload();
    },
  });
  const optimistic = (apply: OptimisticChange['apply'], call: OptimisticChange['call']) =>
    change.mutateAsync({ apply, call }).then(
      () => true,
      () => false,
    );

  const thenReload = async (call: () => Promise<unknown>, timeoutMessage?: string) => {
    start();
    try {
      await call();
      return true;
    } catch (error) {
      fail(timeoutMessage && isTimeout(error) ? new Error(timeoutMessage) : error);
      return false;
    } finally {
      void list.reload();
    }
  };

  return {
    /** `to` is relative to the directory; a path with '/' moves the file out of this listing. */
    rename: (files: { from: string; to: string }[]) =>
      optimistic(
        (entries) =>
          entries.flatMap((entry) => {
            const to = files.find((file) => file.from === entry.name)?.to;
            if (to === undefined) return [entry];
            if (to.includes('/')) return [];
            return [{ ...entry, name: to, key: `${entry.isFile ? 'file' : 'dir'}_${to}` }];
          }),
        () => renameFiles(server.id, { root: directory, files }),
      ),
    remove: (names: string[]) =>
      optimistic(
        (entries) => entries.filter((entry) => !names.includes(entry.name)),
        () => deleteFiles(server.id, { root: directory, files: names }),
      ),
    chmod: (files: { file: string; mode: string }[]) =>
      optimistic(
        (entries) =>
          entries.map((entry) => {
            const mode = files.find((file) => file.file === entry.name)?.mode;
            return mode ? { ...entry, modeBits: mode, mode: modeString(mode, entry.isFile) } : entry;
          }),
        () => chmodFiles(server.id, { root: directory, files }),
      ),
    copy: (name: string) => thenReload(() => copyFile(server.id, { location: joinPath(directory, name) })),
    compress: (names: string[]) =>
      thenReload(
        () => compressFiles(server.id, { root: directory, files: names }),
        t('files.compress_timeout'),
      ),
    decompress: (name: string) =>
      thenReload(
        () => decompressFile(server.id, { root: directory, file: name }),
        t('files.decompress_timeout'),
      ),
    download: async (name: string) => {
      start();
      try {
        browser.loadPage(await getDownloadUrl(server.id, joinPath(directory, name)));
      } catch (error) {
        fail(error);
      }
    },
    reload: list.reload,
  };
}
