import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { User } from '@aerie/panel/features/users/user';
import { forbidden, HttpError } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { ownerPermissions, rootAdminPermissions } from '@aerie/shared/permissions/permissions';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type { ServerRecord } from './server-record';

/** The server a route under /api/client/servers/{server} works on, with the caller's standing on it. */
export interface ServerAccess {
  server: ServerRecord;
  node: NodeRecord;
  user: User;
  isOwner: boolean;
  isTransferring: boolean;
  /** Effective permissions (§5): `*` for owners and root admins, the stored list for subusers. */
  permissions: string[];
  /** Where the request came from, for the activity log. */
  origin: RequestOrigin;
}

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

export const accessDenied = () => forbidden(serverMessages.unauthorized);
