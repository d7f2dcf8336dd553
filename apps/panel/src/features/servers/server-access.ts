import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { HttpError } from '@aerie/panel/http/errors';
import { ownerPermissions, rootAdminPermissions } from '@aerie/shared/permissions/permissions';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type { ServerRecord } from './server-record';

/**
 * Effective permissions of a user on a server (Pterodactyl's GetUserPermissionsService): a root admin gets the
 * wildcard plus the admin console events on any server, the owner the wildcard, a subuser the stored list as
 * stored, anyone else nothing.
 */
export function effectivePermissions(
  user: { id: number; rootAdmin: boolean },
  server: Pick<ServerRecord, 'ownerId'>,
  subuserPermissions: readonly string[] | undefined,
): string[] {
  if (user.rootAdmin) return [...rootAdminPermissions];
  if (server.ownerId === user.id) return [...ownerPermissions];
  return subuserPermissions ? [...subuserPermissions] : [];
}

const conflict = (detail: string) => new HttpError(409, 'ServerStateConflictException', detail);

export interface ServerState {
  server: Pick<ServerRecord, 'status'>;
  node: Pick<NodeRecord, 'maintenanceMode'>;
  isTransferring: boolean;
}

export const isSuspended = ({ server }: ServerState) => server.status === 'suspended';
export const isInstalling = (status: string | null) => status === 'installing' || status === 'install_failed';

/**
 * The 409 a server in a conflict state answers (first match: suspended, node maintenance, not installed,
 * restoring a backup, transferring), or null when the server can be worked on.
 */
export function serverStateConflict(state: ServerState): HttpError | null {
  const { server, node, isTransferring } = state;
  if (isSuspended(state)) return conflict(serverMessages.suspended);
  if (node.maintenanceMode) return conflict(serverMessages.nodeMaintenance);
  if (isInstalling(server.status)) return conflict(serverMessages.notInstalled);
  if (server.status === 'restoring_backup') return conflict(serverMessages.restoringBackup);
  if (isTransferring) return conflict(serverMessages.transferring);
  return null;
}
