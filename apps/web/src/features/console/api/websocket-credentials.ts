import type { WebsocketCredentialsResponse } from '@aerie/shared/servers/server-wire';
import type { SocketCredentials } from '@/features/console/socket/console-socket';
import { apiClient } from '@/lib/api-client';

/** A fresh websocket token (10 minutes) and the daemon's socket address for the server. */
export async function getWebsocketCredentials(serverId: string): Promise<SocketCredentials> {
  const { data } = await apiClient.get<WebsocketCredentialsResponse>(
    `/api/client/servers/${encodeURIComponent(serverId)}/websocket`,
  );
  return { token: data.token, socket: data.socket };
}
