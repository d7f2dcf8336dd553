import { DaemonEvent } from '@aerie/shared/console/socket-events';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useSocketEvent } from '@/features/console/hooks/use-console-socket';
import { fileKeys } from '@/features/files/api/files';
import { serverCache } from '@/features/servers/api/server-cache';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/**
 * What the socket changes about the server for the whole area (spec §4): the power state, install and restore
 * events, and transfers. (Rebuilding the socket on a transfer is the socket's own job.)
 */
export function useServerSocketEvents(serverId: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useSocketEvent(DaemonEvent.status, (status) => useServerStateStore.getState().setStatus(status ?? null));
  useSocketEvent(DaemonEvent.installStarted, () =>
    serverCache.setStatus(queryClient, serverId, 'installing'),
  );
  useSocketEvent(DaemonEvent.installCompleted, () => void serverCache.reload(queryClient, serverId));
  // An install that ended before this socket connected sent its `install completed` to nobody: a page loaded
  // mid-install would show Installing for good. Each (re)authentication checks again.
  useSocketEvent(DaemonEvent.authSuccess, () => {
    if (serverCache.get(queryClient, serverId)?.isInstalling) void serverCache.reload(queryClient, serverId);
  });
  useSocketEvent(DaemonEvent.backupRestoreCompleted, () => {
    serverCache.setStatus(queryClient, serverId, null);
    // The restore rewrote the files: listings and contents read before it are not what is on the disk now.
    void queryClient.invalidateQueries({ queryKey: fileKeys.all(serverId) });
    void navigate(paths.server(serverId));
  });
  useSocketEvent(DaemonEvent.transferStatus, (status) => {
    if (status === 'starting') serverCache.setTransferring(queryClient, serverId, true);
    else if (status === 'failure') serverCache.setTransferring(queryClient, serverId, false);
    else if (status === 'success') void serverCache.reload(queryClient, serverId);
  });
  useSocketEvent(DaemonEvent.daemonError, (message) =>
    console.warn('Got error message from daemon socket:', message),
  );
}
