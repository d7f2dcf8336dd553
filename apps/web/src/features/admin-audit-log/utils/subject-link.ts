import type { AdminPermission } from '@aerie/shared/admin-roles/admin-permissions';
import { paths } from '@/config/paths';

/** The admin page of each kind of object that has one, and what reading it takes. */
const pages: Record<string, { permission: AdminPermission; path: (id: string) => string }> = {
  user: { permission: 'users.read', path: (id) => paths.adminSection(`users/view/${id}`) },
  server: { permission: 'servers.read', path: (id) => paths.adminSection(`servers/view/${id}`) },
  node: { permission: 'nodes.read', path: (id) => paths.adminSection(`nodes/view/${id}`) },
  // Locations are edited in their list: it is their page.
  location: { permission: 'locations.read', path: () => paths.adminSection('locations') },
  mount: { permission: 'mounts.read', path: (id) => paths.adminSection(`mounts/${id}`) },
  nest: { permission: 'nests.read', path: (id) => paths.adminSection(`nests/view/${id}`) },
  egg: { permission: 'eggs.read', path: (id) => paths.adminSection(`nests/egg/${id}`) },
  database_host: { permission: 'database_hosts.read', path: (id) => paths.adminSection(`databases/${id}`) },
  admin_role: { permission: 'roles.read', path: (id) => paths.adminSection(`roles/${id}`) },
};

/**
 * Where the subject of an entry is shown in the admin area, or null: none for a kind without a page, for an
 * object the entry deleted, or for a page the viewer may not read.
 */
export function subjectLink(
  entry: { subjectType: string; subjectId: string | null; action: string },
  canRead: (permission: AdminPermission) => boolean,
): string | null {
  const page = pages[entry.subjectType];
  if (!page || entry.subjectId === null || !/^\d+$/.test(entry.subjectId)) return null;
  if (entry.action === `${entry.subjectType}.delete` || !canRead(page.permission)) return null;
  return page.path(entry.subjectId);
}
