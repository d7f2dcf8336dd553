import { adminResources } from '../api-keys/application-keys-wire';

/**
 * What an admin role may do, per area of the admin area: read or write each Application API resource (as an
 * application key's `r_<resource>` bits do), plus the panel settings and the roles themselves. Written
 * `<area>.<read|write>`; write never implies read, so a role is given both where it needs both.
 */
export const adminAreas = [...adminResources, 'settings', 'roles'] as const;

export type AdminArea = (typeof adminAreas)[number];

/** Areas that can only be read: nothing writes the audit log but the changes it records. */
const READ_ONLY_AREAS: ReadonlySet<AdminArea> = new Set(['audit_log']);

export type AdminPermission = `${AdminArea}.${'read' | 'write'}`;

export const adminPermissions: readonly AdminPermission[] = adminAreas.flatMap((area) =>
  READ_ONLY_AREAS.has(area) ? [`${area}.read` as const] : [`${area}.read` as const, `${area}.write` as const],
);

export const isAdminPermission = (value: unknown): value is AdminPermission =>
  typeof value === 'string' && (adminPermissions as readonly string[]).includes(value);

export const permissionFor = (area: AdminArea, write: boolean): AdminPermission =>
  `${area}.${write ? 'write' : 'read'}`;

/**
 * What the signed-in user may do in the admin area, as the page tells the SPA: every permission for a root
 * admin, their role's for anyone else, none without a role.
 */
export type AdminGrant = 'root' | readonly AdminPermission[];

export const canInAdmin = (grant: AdminGrant | null | undefined, permission: AdminPermission): boolean =>
  grant === 'root' || (Array.isArray(grant) && grant.includes(permission));
