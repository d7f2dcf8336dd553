import type admin from '@locales/en/admin.json';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type NavKey = Exclude<keyof typeof admin.nav, 'label'>;

/** The side menu of the admin area, in order; each entry's path is under /admin. */
export const adminSections: readonly { path: string; nav: NavKey }[] = [
  { path: '', nav: 'overview' },
  { path: 'settings', nav: 'settings' },
  { path: 'api', nav: 'api_keys' },
  { path: 'databases', nav: 'database_hosts' },
  { path: 'locations', nav: 'locations' },
  { path: 'nodes', nav: 'nodes' },
  { path: 'servers', nav: 'servers' },
  { path: 'users', nav: 'users' },
  { path: 'nests', nav: 'nests' },
  { path: 'mounts', nav: 'mounts' },
];

/** A page of the admin area, loaded in its own chunk when first opened. */
const lazyPage = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

/** One page of the admin area: its path under /admin (or the index) and its component, loaded when first shown. */
export interface AdminRoute {
  path?: string;
  index?: true;
  lazy: LazyExoticComponent<ComponentType>;
}

/**
 * The pages under /admin. A section ships by adding its routes here; the paths follow Pterodactyl's admin
 * (`/admin/servers/view/{id}`), so links of older panels and the client area's admin link keep working. This table
 * lives in the admin chunk (the app's router only knows `admin/*`), so other users' first load does not carry it.
 */
export const adminRoutes: AdminRoute[] = [
  { index: true, lazy: lazyPage(() => import('@/app/routes/admin/overview')) },
  { path: 'settings', lazy: lazyPage(() => import('@/app/routes/admin/settings')) },
  { path: 'api', lazy: lazyPage(() => import('@/app/routes/admin/api-keys')) },
  { path: 'api/new', lazy: lazyPage(() => import('@/app/routes/admin/api-key-new')) },
  { path: 'databases', lazy: lazyPage(() => import('@/app/routes/admin/database-hosts')) },
  { path: 'databases/new', lazy: lazyPage(() => import('@/app/routes/admin/database-host-new')) },
  { path: 'databases/:id', lazy: lazyPage(() => import('@/app/routes/admin/database-host')) },
  { path: 'users', lazy: lazyPage(() => import('@/app/routes/admin/users')) },
  { path: 'users/view/:id', lazy: lazyPage(() => import('@/app/routes/admin/user-view')) },
  { path: 'locations', lazy: lazyPage(() => import('@/app/routes/admin/locations')) },
  { path: 'nodes', lazy: lazyPage(() => import('@/app/routes/admin/nodes')) },
  { path: 'nodes/view/:id/:tab?', lazy: lazyPage(() => import('@/app/routes/admin/node-view')) },
  { path: 'servers', lazy: lazyPage(() => import('@/app/routes/admin/servers')) },
  { path: 'servers/new', lazy: lazyPage(() => import('@/app/routes/admin/server-new')) },
  { path: 'servers/view/:id/:tab?', lazy: lazyPage(() => import('@/app/routes/admin/server-view')) },
  { path: 'nests', lazy: lazyPage(() => import('@/app/routes/admin/nests')) },
  { path: 'nests/view/:id', lazy: lazyPage(() => import('@/app/routes/admin/nest-view')) },
  { path: 'nests/egg/:id', lazy: lazyPage(() => import('@/app/routes/admin/egg-view')) },
  { path: 'mounts', lazy: lazyPage(() => import('@/app/routes/admin/mounts')) },
  { path: 'mounts/new', lazy: lazyPage(() => import('@/app/routes/admin/mount-new')) },
  { path: 'mounts/:id', lazy: lazyPage(() => import('@/app/routes/admin/mount')) },
];
