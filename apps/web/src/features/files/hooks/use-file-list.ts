import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fileKeys, fileListQueryOptions } from '@/features/files/api/files';
import type { FileEntry } from '@/features/files/api/transformers';
import { useServer } from '@/features/servers/hooks/use-server';

/** The listing of `directory`, plus helpers to change it optimistically and to reload it. */
export function useFileList(directory: string) {
  const server = useServer();
  const queryClient = useQueryClient();
  const query = useQuery(fileListQueryOptions(server.id, directory));
  const key = fileKeys.list(server.id, directory);
  return {
    ...query,
    /** Applies a change to the cached listing at once (rename, delete, chmod: spec §4). */
    mutate: (change: (files: FileEntry[]) => FileEntry[]) =>
      queryClient.setQueryData<FileEntry[]>(key, (files) => (files ? change(files) : files)),
    /** Cancels a fetch of the listing in flight, so its answer cannot overwrite a change made meanwhile. */
    cancel: () => queryClient.cancelQueries({ queryKey: key, exact: true }),
    /** Fetches the listing again, e.g. after a failed optimistic change or a new file. */
    reload: () => queryClient.invalidateQueries({ queryKey: key }),
  };
}
