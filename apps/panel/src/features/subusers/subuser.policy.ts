import { accessDenied, type ServerAccess } from '@aerie/panel/features/servers/server-access';
import { HttpError } from '@aerie/panel/http/errors';
import { hasPermission } from '@aerie/shared/permissions/can';
import { isPermission, WEBSOCKET_CONNECT } from '@aerie/shared/permissions/permissions';
import type { RequestedPermissions } from '@aerie/shared/permissions/requested-permissions';
import { subuserMessages } from '@aerie/shared/subusers/subusers-bodies';

/**
 * The rules of the Users page a permission string cannot express (reference §7.2 "Subusers", §13 gotcha 8;
 * spec §5, §6). Both run before the body's rules, as upstream's form request authorises before it validates.
 */

/**
 * A subuser may only hand out permissions they hold themselves; owners and root admins may hand out any.
 * Every string a subuser names must be a catalogue permission they hold, as upstream's `array_diff` against
 * their own list: an unknown one (`FILE.DELETE`, `file.*`) is refused too, though it would only be dropped when
 * stored. `websocket.connect` is every subuser's anyway.
 * @param requested the body's permissions after their rules (trimmed, each once): the very strings that are
 *   stored, so no spelling can pass here as one thing and be stored as another
 * @throws HttpError 403 HttpForbiddenException "Cannot assign permissions to a subuser that your account does not
 *   actively possess."
 */
export function assertCanGrant(access: ServerAccess, requested: RequestedPermissions): void {
  if (access.isOwner || access.user.rootAdmin) return;
  const beyond = requested.some(
    (permission) =>
      permission !== WEBSOCKET_CONNECT &&
      !(isPermission(permission) && hasPermission(access.permissions, permission)),
  );
  if (beyond) throw new HttpError(403, 'HttpForbiddenException', subuserMessages.cannotAssign);
}

/**
 * Nobody views, changes or removes their own subuser row: a subuser cannot raise or drop their own permissions.
 * @throws HttpError 403 AccessDeniedHttpException "This action is unauthorized."
 */
export function assertNotSelf(access: ServerAccess, subuser: { userId: number }): void {
  if (subuser.userId === access.user.id) throw accessDenied();
}
