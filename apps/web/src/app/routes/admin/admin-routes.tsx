import {
  type AdminGrant,
  type AdminPermission,
  canInAdmin,
} from '@aerie/shared/admin-roles/admin-permissions';
import type admin from '@locales/en/admin.json';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type NavKey = Exclude<keyof typeof admin.nav, 'label'>;

/**
 * What opens a section or page: an admin permission, or `root` for what no role can be given (the sign-in
 * providers decide who gets into which account; the API refuses everyone else).
 */
export type AdminRequirement = AdminPermission | 'root';

/** Whether `grant` meets `requirement` (none: every admin). */
export const meetsRequirement = (grant: AdminGrant | null, requirement?: AdminRequirement): boolean =>
  requirement === undefined || (requirement === 'root' ? grant === 'root' : canInAdmin(grant, requirement));

/**
 * The side menu of the admin area, in order; each entry's path is under /admin. `permission` is what the user must
 * hold to see the entry (none: every admin, for their own application keys); the overview asks the nodes.
 */
export const adminSections: readonly { path: string; nav: NavKey; permission?: AdminRequirement }[] = [
  { path: '', nav: 'overview', permission: 'nodes.read' },
  { path: 'settings', nav: 'settings', permission: 'settings.read' },
  { path: 'api', nav: 'api_keys' },
  { path: 'databases', nav: 'database_hosts', permission: 'database_hosts.read' },
  { path: 'locations', nav: 'locations', permission: 'locations.read' },
  { path: 'nodes', nav: 'nodes', permission: 'nodes.read' },
  { path: 'servers', nav: 'servers', permission: 'servers.read' },
  { path: 'users', nav: 'users', permission: 'users.read' },
  { path: 'nests', nav: 'nests', permission: 'nests.read' },
  { path: 'mounts', nav: 'mounts', permission: 'mounts.read' },
  { path: 'roles', nav: 'roles', permission: 'roles.read' },
  { path: 'oauth-providers', nav: 'oauth_providers', permission: 'root' },
  { path: 'audit', nav: 'audit_log', permission: 'audit_log.read' },
];

/** A page of the admin area, loaded in its own chunk when first opened. */
const lazyPage = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

/**
 * One page of the admin area: its path under /admin (or the index), its component, loaded when first shown, and
 * what the user must hold to open it (a page of creation asks for write); without it the page is not found.
 */
export interface AdminRoute {
  path?: string;
  index?: true;
  lazy: LazyExoticComponent<ComponentType>;
  permission?: AdminRequirement;
}

/**
 * The pages under /admin. A section ships by adding its routes here; the paths follow Pterodactyl's admin
 * (`/admin/servers/view/{id}`), so links of older panels and the client area's admin link keep working. This table
 * lives in the admin chunk (the app's router only knows `admin/*`), so other users' first load does not carry it.
 */
export const adminRoutes: AdminRoute[] = [
  { index: true, lazy: lazyPage(() => import('@/app/routes/admin/overview')), permission: 'nodes.read' },
  {
    path: 'settings',
    lazy: lazyPage(() => import('@/app/routes/admin/settings')),
    permission: 'settings.read',
  },
  { path: 'api', lazy: lazyPage(() => import('@/app/routes/admin/api-keys')) },
  { path: 'api/new', lazy: lazyPage(() => import('@/app/routes/admin/api-key-new')) },
  {
    path: 'databases',
    lazy: lazyPage(() => import('@/app/routes/admin/database-hosts')),
    permission: 'database_hosts.read',
  },
  {
    path: 'databases/new',
    lazy: lazyPage(() => import('@/app/routes/admin/database-host-new')),
    permission: 'database_hosts.write',
  },
  {
    path: 'databases/:id',
    lazy: lazyPage(() => import('@/app/routes/admin/database-host')),
    permission: 'database_hosts.read',
  },
  { path: 'users', lazy: lazyPage(() => import('@/app/routes/admin/users')), permission: 'users.read' },
  {
    path: 'users/view/:id',
    lazy: lazyPage(() => import('@/app/routes/admin/user-view')),
    permission: 'users.read',
  },
  {
    path: 'locations',
    lazy: lazyPage(() => import('@/app/routes/admin/locations')),
    permission: 'locations.read',
  },
  { path: 'nodes', lazy: lazyPage(() => import('@/app/routes/admin/nodes')), permission: 'nodes.read' },
  {
    path: 'nodes/view/:id/:tab?',
    lazy: lazyPage(() => import('@/app/routes/admin/node-view')),
    permission: 'nodes.read',
  },
  { path: 'servers', lazy: lazyPage(() => import('@/app/routes/admin/servers')), permission: 'servers.read' },
  {
    path: 'servers/new',
    lazy: lazyPage(() => import('@/app/routes/admin/server-new')),
    permission: 'servers.write',
  },
  {
    path: 'servers/view/:id/:tab?',
    lazy: lazyPage(() => import('@/app/routes/admin/server-view')),
    permission: 'servers.read',
  },
  { path: 'nests', lazy: lazyPage(() => import('@/app/routes/admin/nests')), permission: 'nests.read' },
  {
    path: 'nests/view/:id',
    lazy: lazyPage(() => import('@/app/routes/admin/nest-view')),
    permission: 'nests.read',
  },
  {
    path: 'nests/egg/:id',
    lazy: lazyPage(() => import('@/app/routes/admin/egg-view')),
    permission: 'eggs.read',
  },
  { path: 'mounts', lazy: lazyPage(() => import('@/app/routes/admin/mounts')), permission: 'mounts.read' },
  {
    path: 'mounts/new',
    lazy: lazyPage(() => import('@/app/routes/admin/mount-new')),
    permission: 'mounts.write',
  },
  { path: 'mounts/:id', lazy: lazyPage(() => import('@/app/routes/admin/mount')), permission: 'mounts.read' },
  { path: 'roles', lazy: lazyPage(() => import('@/app/routes/admin/roles')), permission: 'roles.read' },
  {
    path: 'roles/new',
    lazy: lazyPage(() => import('@/app/routes/admin/role-new')),
    permission: 'roles.write',
  },
  { path: 'roles/:id', lazy: lazyPage(() => import('@/app/routes/admin/role')), permission: 'roles.read' },
  {
    path: 'oauth-providers',
    lazy: lazyPage(() => import('@/app/routes/admin/oauth-providers')),
    permission: 'root',
  },
  {
    path: 'oauth-providers/new',
    lazy: lazyPage(() => import('@/app/routes/admin/oauth-provider-new')),
    permission: 'root',
  },
  {
    path: 'oauth-providers/:id',
    lazy: lazyPage(() => import('@/app/routes/admin/oauth-provider')),
    permission: 'root',
  },
  {
    path: 'audit',
    lazy: lazyPage(() => import('@/app/routes/admin/audit-log')),
    permission: 'audit_log.read',
  },
];
