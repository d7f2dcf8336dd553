import type admin from '@locales/en/admin.json';
import type { RouteObject } from 'react-router';

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
];

/** A page of the admin area, loaded in its own chunk when first opened. */
const lazyPage =
  (load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default });

/**
 * Children of /admin. A section ships by adding its routes here; the paths follow Pterodactyl's admin
 * (`/admin/servers/view/{id}`), so links of older panels and the client area's admin link keep working.
 */
export const adminRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('@/app/routes/admin/overview')) },
  { path: 'servers', lazy: lazyPage(() => import('@/app/routes/admin/servers')) },
  { path: 'servers/new', lazy: lazyPage(() => import('@/app/routes/admin/server-new')) },
  { path: 'servers/view/:id/:tab?', lazy: lazyPage(() => import('@/app/routes/admin/server-view')) },
];
