import type { QueryClient } from '@tanstack/react-query';
import { type LoadedServer, serverKeys } from '@/features/servers/api/servers';
import type { Server, ServerStatus } from '@/features/servers/api/transformers';

/**
 * Live changes the console socket reports (spec §4 "Server install and restore events", "Transfer status"), made
 * to the cached server so the whole area (blocked views, notices) follows without a reload.
 */
export const serverCache = {
  /** The cached server, if loaded. */
  get(queryClient: QueryClient, id: string) {
    return queryClient.getQueryData<LoadedServer>(serverKeys.detail(id))?.server;
  },
  setStatus(queryClient: QueryClient, id: string, status: ServerStatus | null) {
    queryClient.setQueryData<LoadedServer>(serverKeys.detail(id), (loaded) =>
      loaded
        ? {
            ...loaded,
            server: {
              ...loaded.server,
              status,
              isInstalling: status === 'installing' || status === 'install_failed',
            },
          }
        : loaded,
    );
  },
  setTransferring(queryClient: QueryClient, id: string, isTransferring: boolean) {
    queryClient.setQueryData<LoadedServer>(serverKeys.detail(id), (loaded) =>
      loaded ? { ...loaded, server: { ...loaded.server, isTransferring } } : loaded,
    );
  },
  /** Any other change a page made to the server (a new name, allocations, the Docker image). */
  update(queryClient: QueryClient, id: string, change: (server: Server) => Server) {
    queryClient.setQueryData<LoadedServer>(serverKeys.detail(id), (loaded) =>
      loaded ? { ...loaded, server: change(loaded.server) } : loaded,
    );
  },
  /** Loads the server again (install finished, transfer done). */
  reload(queryClient: QueryClient, id: string) {
    return queryClient.invalidateQueries({ queryKey: serverKeys.detail(id), exact: true });
  },
};
