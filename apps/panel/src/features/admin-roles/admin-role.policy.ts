import { forbidden } from '@aerie/panel/http/errors';
import {
  type AdminGrant,
  type AdminPermission,
  canInAdmin,
} from '@aerie/shared/admin-roles/admin-permissions';
import { adminRoleMessages } from '@aerie/shared/admin-roles/admin-roles-bodies';
import { ACCESS_READ, ACCESS_WRITE, type AdminResource } from '@aerie/shared/api-keys/application-keys-wire';

/**
 * The rules a permission string cannot say alone: nobody grants what they do not hold (to a role, a user or an
 * application key), and nobody below root touches a root admin. Immich's "Cannot grant permissions you do not
 * have", applied to every way of handing out power.
 */

/** The access bits (`r_<resource>` of an application key) the grant allows on `resource`. */
export function accessBitsOf(grant: AdminGrant, resource: AdminResource): number {
  if (grant === 'root') return ACCESS_READ | ACCESS_WRITE;
  return (
    (canInAdmin(grant, `${resource}.read`) ? ACCESS_READ : 0) |
    (canInAdmin(grant, `${resource}.write` as AdminPermission) ? ACCESS_WRITE : 0)
  );
}

/** @throws HttpError 403 when `wanted` holds a permission the grant does not */
export function assertWithinGrant(grant: AdminGrant, wanted: readonly AdminPermission[]): void {
  if (wanted.some((permission) => !canInAdmin(grant, permission))) {
    throw forbidden(adminRoleMessages.beyondOwn);
  }
}

/** @throws HttpError 403 when `wanted` (a key's bits per resource) holds more than the grant allows */
export function assertBitsWithinGrant(
  grant: AdminGrant,
  wanted: Partial<Record<AdminResource, number>>,
): void {
  for (const [resource, bits] of Object.entries(wanted) as [AdminResource, number][]) {
    if ((bits & ~accessBitsOf(grant, resource)) !== 0) throw forbidden(adminRoleMessages.beyondOwn);
  }
}

/**
 * Below root, an admin changes only accounts that hold no more than they do: never a root admin, never someone
 * whose role (`targetPermissions`) reaches further (their email or password would hand it over), and never makes
 * anyone root.
 * @throws HttpError 403
 */
export function assertMayChangeUser(
  grant: AdminGrant,
  target: { rootAdmin: boolean } | null,
  targetPermissions: readonly AdminPermission[],
  makesRoot: boolean,
): void {
  if (grant === 'root') return;
  if (target?.rootAdmin || makesRoot) throw forbidden(adminRoleMessages.rootOnly);
  assertWithinGrant(grant, targetPermissions);
}
