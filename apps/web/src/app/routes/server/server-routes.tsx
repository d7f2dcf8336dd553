import { fileManagerPermissions } from '@aerie/shared/permissions/permissions';
import type server from '@locales/en/server.json';
import type { RouteObject } from 'react-router';
import { settingsFlashKey } from '@/features/server-settings/components/server-settings-flash-keys';

/** What the server area's layout reads from the matched page route. */
export interface ServerRouteHandle {
  /** Permissions the page needs, all of them unless `matchAny` (spec §2 "Needs"); none = any user of the server. */
  permission?: readonly string[];
  matchAny?: boolean;
  /** The bare server page, where root admins look past a conflict state. */
  console?: boolean;
  /**
   * The page's flash key: its notices stay in view when the server turns blocked under it (Settings' "Your server
   * has begun the reinstallation process." as the installer view replaces the page).
   */
  flashKey?: string;
}

type NavKey = Exclude<keyof typeof server.nav, 'label' | 'admin'>;

/**
 * `file.*`, less `file.sftp`: SFTP sign-in alone opens nothing in the file manager, so a subuser holding only it
 * gets neither the Files tab nor a page that then says the action is unauthorized.
 */
const FILE_MANAGER = { permission: fileManagerPermissions, matchAny: true } as const;

/** The tab row, in order (spec "Tab menu"). Tab permissions differ from route permissions for startup/settings. */
export const serverTabs: readonly {
  path: string;
  nav: NavKey;
  permission?: readonly string[];
  matchAny?: boolean;
}[] = [
  { path: '', nav: 'console' },
  { path: 'files', nav: 'files', ...FILE_MANAGER },
  { path: 'databases', nav: 'databases', permission: ['database.*'] },
  { path: 'schedules', nav: 'schedules', permission: ['schedule.*'] },
  { path: 'users', nav: 'users', permission: ['user.*'] },
  { path: 'backups', nav: 'backups', permission: ['backup.*'] },
  { path: 'network', nav: 'network', permission: ['allocation.*'] },
  { path: 'startup', nav: 'startup', permission: ['startup.*'] },
  { path: 'settings', nav: 'settings', permission: ['settings.*', 'file.sftp'], matchAny: true },
  { path: 'activity', nav: 'activity', permission: ['activity.read'] },
];

/** Children of /server/:id, all exact; anything else is not-found. */
export const serverRoutes: RouteObject[] = [
  {
    index: true,
    handle: { console: true } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/console')).ConsoleRoute }),
  },
  {
    path: 'files',
    handle: FILE_MANAGER satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/files')).FilesRoute }),
  },
  // One module for both: the editor and the new-file flow share CodeMirror, loaded only once the page opens.
  {
    path: 'files/new',
    handle: FILE_MANAGER satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/file-editor')).NewFileRoute }),
  },
  {
    path: 'files/edit',
    handle: FILE_MANAGER satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/file-editor')).EditFileRoute }),
  },
  {
    path: 'databases',
    handle: { permission: ['database.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/databases')).DatabasesRoute }),
  },
  {
    path: 'schedules',
    handle: { permission: ['schedule.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/schedules')).SchedulesRoute }),
  },
  {
    path: 'schedules/:scheduleId',
    handle: { permission: ['schedule.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/schedule')).ScheduleRoute }),
  },
  {
    path: 'users',
    handle: { permission: ['user.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/users')).UsersRoute }),
  },
  {
    path: 'backups',
    handle: { permission: ['backup.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/backups')).BackupsRoute }),
  },
  {
    path: 'network',
    handle: { permission: ['allocation.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/network')).NetworkRoute }),
  },
  // The spec gives these two only tab conditions; a user without them gets Access Denied at once, as for the others.
  {
    path: 'startup',
    handle: { permission: ['startup.*'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/startup')).StartupRoute }),
  },
  {
    path: 'settings',
    handle: {
      permission: ['settings.*', 'file.sftp'],
      matchAny: true,
      flashKey: settingsFlashKey,
    } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/settings')).SettingsRoute }),
  },
  {
    path: 'activity',
    handle: { permission: ['activity.read'] } satisfies ServerRouteHandle,
    lazy: async () => ({ Component: (await import('@/app/routes/server/activity')).ActivityRoute }),
  },
  {
    path: '*',
    lazy: async () => ({ Component: (await import('@/app/routes/app/not-found')).NotFoundRoute }),
  },
];
