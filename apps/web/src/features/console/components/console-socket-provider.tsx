import { type ReactNode, useEffect, useState } from 'react';
import { getWebsocketCredentials } from '@/features/console/api/websocket-credentials';
import { ConnectionBanner } from '@/features/console/components/connection-banner';
import { ConsoleSocketContext } from '@/features/console/hooks/use-console-socket';
import { useServerSocketEvents } from '@/features/console/hooks/use-server-socket-events';
import { type ConnectionProblem, ConsoleSocket } from '@/features/console/socket/console-socket';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

function ServerSocketEvents({ serverId }: { serverId: string }) {
  useServerSocketEvents(serverId);
  return null;
}

/**
 * Keeps the open server's console socket for the whole server area, like Pterodactyl: its events reach every
 * page, and the connection banner shows above them. Leaving the server closes the socket and its listeners.
 */
export function ConsoleSocketProvider({ serverId, children }: { serverId: string; children: ReactNode }) {
  const [socket, setSocket] = useState<ConsoleSocket | null>(null);
  const [problem, setProblem] = useState<ConnectionProblem>(null);

  useEffect(() => {
    const instance = new ConsoleSocket({ fetchCredentials: () => getWebsocketCredentials(serverId) });
    const { setConnected } = useServerStateStore.getState();
    instance.onStateChange((state) => {
      setConnected(state.connected);
      setProblem(state.problem);
    });
    setSocket(instance);
    void instance.connect();
    return () => {
      instance.close();
      setConnected(false);
      setSocket(null);
      setProblem(null);
    };
  }, [serverId]);

  return (
    <ConsoleSocketContext.Provider value={socket}>
      <ServerSocketEvents serverId={serverId} />
      <ConnectionBanner problem={problem} />
      {children}
    </ConsoleSocketContext.Provider>
  );
}
