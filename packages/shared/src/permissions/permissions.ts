/**
 * The subuser permission catalogue: Pterodactyl's 11 categories and 40 keys in the order `GET /api/client/permissions`
 * lists them, then Aerie's own (`mount`). A permission string is `<category>.<key>`. Descriptions are our own
 * wording.
 */
export const permissionCatalogue = {
  websocket: {
    description: 'Live access to the server console stream and its resource usage.',
    keys: {
      connect: 'Open the live console connection to follow output and resource usage as it happens.',
    },
  },
  control: {
    description: 'Power the server on and off and type into its console.',
    keys: {
      console: 'Send commands to the console of the running server.',
      start: 'Start the server when it is stopped.',
      stop: 'Stop the server, or kill it when it will not stop by itself.',
      restart: 'Restart the server; this also starts it when it is stopped.',
    },
  },
  user: {
    description: 'Manage the other people who may use this server.',
    keys: {
      create: 'Invite new subusers to this server.',
      read: 'See the subusers of this server and what each of them may do.',
      update: 'Change what other subusers may do on this server.',
      delete: 'Take away the access of a subuser to this server.',
    },
  },
  file: {
    description: 'Work with the server files, in the file manager and over SFTP.',
    keys: {
      create:
        'Create files and folders, upload, write file contents, copy, fetch from a URL and unpack archives.',
      read: 'List folders and see file names, sizes and dates, without opening the files.',
      'read-content': 'Open files to read them, and download them.',
      update: 'Rename, move and change the mode of existing files and folders.',
      delete: 'Delete files and folders.',
      archive: 'Pack files and folders into archives.',
      sftp: 'Sign in over SFTP; the other file permissions still decide what can be done there.',
    },
  },
  backup: {
    description: 'Take and manage copies of the server files.',
    keys: {
      create: 'Start a new backup.',
      read: 'See the list of backups and learn when one finishes.',
      delete: 'Delete backups, and lock or unlock them.',
      download: 'Download backups; a backup holds every file of the server.',
      restore: 'Restore a backup, which can replace or remove the current files.',
    },
  },
  allocation: {
    description: 'See and manage the addresses and ports the server listens on.',
    keys: {
      read: 'See every address and port of the server; the primary one is always visible.',
      create: 'Add another port to the server.',
      update: 'Choose the primary port and edit the notes of each port.',
      delete: 'Remove ports other than the primary one.',
    },
  },
  startup: {
    description: 'See and change how the server starts.',
    keys: {
      read: 'See the startup command and the startup variables.',
      update: 'Change the values of startup variables.',
      'docker-image': 'Switch the server to another Docker image offered by its egg.',
    },
  },
  database: {
    description: 'Manage the databases that belong to this server.',
    keys: {
      create: 'Create a new database.',
      read: 'See the list of databases.',
      update: 'Give a database a new password; seeing it also needs the view password permission.',
      delete: 'Delete a database and everything stored in it.',
      view_password: 'See the passwords of the databases.',
    },
  },
  schedule: {
    description: 'Automate work on the server with scheduled tasks.',
    keys: {
      create: 'Create new schedules.',
      read: 'See schedules and their tasks.',
      update: 'Edit schedules and their tasks, and run a schedule right away.',
      delete: 'Delete schedules.',
    },
  },
  settings: {
    description: 'Change the basic settings of the server.',
    keys: {
      rename: 'Change the name and the description of the server.',
      reinstall: 'Run the install script of the egg on this server again.',
    },
  },
  activity: {
    description: 'Look back at what happened on the server.',
    keys: {
      read: 'See the activity log of the server.',
    },
  },
  mount: {
    description: 'Use folders the host shares with servers, such as maps or mod packs.',
    keys: {
      read: 'See the shared folders this server uses and those it may use.',
      update: 'Attach the shared folders that users may attach to this server, and detach them.',
    },
  },
} as const satisfies Record<string, { description: string; keys: Record<string, string> }>;

export type PermissionCategory = keyof typeof permissionCatalogue;

/** Every known permission string, e.g. `'file.read-content'`. */
export type Permission = {
  [C in PermissionCategory]: `${C}.${keyof (typeof permissionCatalogue)[C]['keys'] & string}`;
}[PermissionCategory];

/** Every file permission but `file.sftp`: what opens the file manager (SFTP sign-in alone opens nothing there). */
export const fileManagerPermissions: readonly Permission[] = (
  Object.keys(permissionCatalogue.file.keys) as (keyof typeof permissionCatalogue.file.keys)[]
)
  .filter((key) => key !== 'sftp')
  .map((key) => `file.${key}` as Permission);

/** The wildcard an owner (and a root admin) holds: it grants every permission. */
export const WILDCARD_PERMISSION = '*';

/** Always granted to a subuser: without it the console page cannot even connect. */
export const WEBSOCKET_CONNECT: Permission = 'websocket.connect';

/** Effective permissions of a server owner. */
export const ownerPermissions: readonly string[] = [WILDCARD_PERMISSION];

/** Effective permissions of a root admin on any server: everything, plus the admin-only console events. */
export const rootAdminPermissions: readonly string[] = [
  WILDCARD_PERMISSION,
  'admin.websocket.errors',
  'admin.websocket.install',
  'admin.websocket.transfer',
];

export const permissionCategories = Object.keys(permissionCatalogue) as PermissionCategory[];

/** All 42 permissions in catalogue order. */
export const allPermissions: readonly Permission[] = permissionCategories.flatMap((category) =>
  Object.keys(permissionCatalogue[category].keys).map((key) => `${category}.${key}` as Permission),
);

const known: ReadonlySet<string> = new Set(allPermissions);

export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && known.has(value);

/**
 * What gets stored when subuser permissions are saved: only known permissions, each once, in the order given,
 * with `websocket.connect` added at the end when missing (Pterodactyl stores the same list).
 */
export function sanitizeSubuserPermissions(input: readonly unknown[]): Permission[] {
  const kept = [...new Set(input.filter(isPermission))];
  if (!kept.includes(WEBSOCKET_CONNECT)) kept.push(WEBSOCKET_CONNECT);
  return kept;
}

/** Body of `GET /api/client/permissions`. */
export interface SystemPermissionsResponse {
  object: 'system_permissions';
  attributes: {
    permissions: Record<string, { description: string; keys: Record<string, string> }>;
  };
}

export const systemPermissionsResponse = (): SystemPermissionsResponse => ({
  object: 'system_permissions',
  attributes: { permissions: permissionCatalogue },
});
