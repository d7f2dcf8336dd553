import { accessDenied, type ServerAccess } from '@aerie/panel/features/servers/server-access.hook';
import { HttpError } from '@aerie/panel/http/errors';
import { hasPermission } from '@aerie/shared/permissions/can';
import { isPermission, WEBSOCKET_CONNECT } from '@aerie/shared/permissions/permissions';
import { subuserMessages } from '@aerie/shared/subusers/subusers-bodies';

/**
 * The rules of the Users page a permission string cannot express (reference §7.2 "Subusers", §13 gotcha 8;
 * spec §5, §6). Both run before the body's rules, as upstream's form request authorises before it validates.
 */

/**
 * A subuser may only hand out permissions they hold themselves; owners and root admins may hand out any.
 * Only catalogue permissions are weighed (anything else grants nothing and is dropped when stored), and
 * `websocket.connect`, which every subuser is given anyway.
 * @param requested the body's `permissions` as sent (not yet validated)
 * @throws HttpError 403 HttpForbiddenException "Cannot assign permissions to a subuser that your account does not
 *   actively possess."
 */
export function assertCanGrant(access: ServerAccess, requested: unknown): void {
  if (access.isOwner || access.user.rootAdmin || !Array.isArray(requested)) return;
  const beyond = requested
    .filter(isPermission)
    .some((permission) => permission !== WEBSOCKET_CONNECT && !hasPermission(access.permissions, permission));
  if (beyond) throw new HttpError(403, 'HttpForbiddenException', subuserMessages.cannotAssign);
}

/**
 * Nobody views, changes or removes their own subuser row: a subuser cannot raise or drop their own permissions.
 * @throws HttpError 403 AccessDeniedHttpException "This action is unauthorized."
 */
export function assertNotSelf(access: ServerAccess, subuser: { userId: number }): void {
  if (subuser.userId === access.user.id) throw accessDenied();
}
