import { createContext, useContext } from 'react';
import type { LoadedServer } from '@/features/servers/api/servers';

/** The server whose area is open, with the caller's permissions on it. Provided by the server area's layout. */
export const ServerContext = createContext<LoadedServer | null>(null);

export function useServerContext(): LoadedServer {
  const loaded = useContext(ServerContext);
  if (!loaded) throw new Error('useServer is only available inside the server area.');
  return loaded;
}

export const useServer = () => useServerContext().server;

/** The permission strings the user holds on the open server ('*' first for the owner). */
export const useServerPermissions = () => useServerContext().permissions;
