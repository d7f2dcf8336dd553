import type { ActivityEvent } from './activity-events';

/**
 * The English description of each event, Pterodactyl's wording (its `lang/en/activity.php`), with Laravel's
 * `:name` placeholders filled from the entry's properties (`:files.0.from` reaches into a list). Events described
 * by how many things they touched have a `one` and an `other` form, chosen by the entry's `count` property.
 * The web app translates events itself; this is the source text, and what the panel reads to know which
 * properties a description already shows (`has_additional_metadata`).
 */
export type ActivityDescription = string | { one: string; other: string };

export const activityDescriptions: Record<ActivityEvent, ActivityDescription> = {
  'auth:success': 'Logged in',
  'auth:fail': 'Failed log in',
  'auth:checkpoint': 'Two-factor authentication requested',
  'auth:token': 'Solved two-factor challenge',
  'auth:recovery-token': 'Used two-factor recovery token',
  'auth:ip-blocked': 'Blocked request from unlisted IP address for :identifier',
  'auth:throttled': 'Log in refused after too many failed attempts',
  'auth:oauth': 'Logged in with :provider',
  'auth:oauth-fail': 'Failed log in with :provider',
  'auth:passkey': 'Signed in with a passkey',
  'user:account.email-changed': 'Changed email from :old to :new',
  'user:account.password-changed': 'Changed password',
  'user:api-key.create': 'Created new API key :identifier',
  'user:api-key.delete': 'Deleted API key :identifier',
  'user:ssh-key.create': 'Added SSH key :fingerprint to account',
  'user:ssh-key.delete': 'Removed SSH key :fingerprint from account',
  'user:passkey.create': 'Added passkey :name',
  'user:passkey.update': 'Renamed passkey :old to :new',
  'user:passkey.delete': 'Removed passkey :name',
  'user:two-factor.create': 'Enabled two-factor auth',
  'user:two-factor.delete': 'Disabled two-factor auth',
  'user:oauth.link': 'Linked :provider sign-in to account',
  'user:oauth.unlink': 'Unlinked :provider sign-in from account',
  'user:oauth.create-account': 'Created account by signing in with :provider',
  'server:console.command': 'Executed ":command" on the server',
  'server:power.start': 'Started the server',
  'server:power.stop': 'Stopped the server',
  'server:power.restart': 'Restarted the server',
  'server:power.kill': 'Killed the server process',
  'server:database.create': 'Created new database :name',
  'server:database.rotate-password': 'Password rotated for database :name',
  'server:database.delete': 'Deleted database :name',
  'server:file.read': 'Viewed the contents of :file',
  'server:file.download': 'Downloaded :file',
  'server:file.write': 'Wrote new content to :file',
  'server:file.create-directory': 'Created directory :directory:name',
  'server:file.rename': {
    one: 'Renamed :directory:files.0.from to :directory:files.0.to',
    other: 'Renamed :count files in :directory',
  },
  'server:file.copy': 'Created a copy of :file',
  'server:file.compress': {
    one: 'Compressed :directory:files.0',
    other: 'Compressed :count files in :directory',
  },
  'server:file.decompress': 'Decompressed :file in :directory',
  'server:file.delete': { one: 'Deleted :directory:files.0', other: 'Deleted :count files in :directory' },
  'server:file.pull': 'Downloaded a remote file from :url to :directory',
  'server:file.chmod': {
    one: 'Changed the mode of :directory:files.0.file to :files.0.mode',
    other: 'Changed the mode of :count files in :directory',
  },
  'server:file.upload': 'Began a file upload',
  'server:sftp.login': 'Logged in via SFTP',
  'server:sftp.write': {
    one: 'Modified the contents of :files.0',
    other: 'Modified the contents of :count files',
  },
  'server:sftp.create': { one: 'Created :files.0', other: 'Created :count new files' },
  'server:sftp.create-directory': {
    one: 'Created the :files.0 directory',
    other: 'Created :count directories',
  },
  'server:sftp.rename': {
    one: 'Renamed :files.0.from to :files.0.to',
    other: 'Renamed or moved :count files',
  },
  'server:sftp.delete': { one: 'Deleted :files.0', other: 'Deleted :count files' },
  'server:schedule.create': 'Created the :name schedule',
  'server:schedule.update': 'Updated the :name schedule',
  'server:schedule.execute': 'Manually executed the :name schedule',
  'server:schedule.delete': 'Deleted the :name schedule',
  'server:schedule.run': 'Ran the :name schedule',
  'server:schedule.fail': 'The :name schedule stopped at task :task: :message',
  'server:schedule.stop': 'The :name schedule stopped before task :task: :reason',
  'server:schedule.skip': 'Skipped the :name schedule: the server was not online',
  'server:task.create': 'Created a new ":action" task for the :name schedule',
  'server:task.update': 'Updated the ":action" task for the :name schedule',
  'server:task.delete': 'Deleted a task for the :name schedule',
  'server:allocation.create': 'Added :allocation to the server',
  'server:allocation.notes': 'Updated the notes for :allocation from ":old" to ":new"',
  'server:allocation.primary': 'Set :allocation as the primary server allocation',
  'server:allocation.delete': 'Deleted the :allocation allocation',
  'server:mount.attach': 'Attached the :name mount at :target',
  'server:mount.detach': 'Detached the :name mount from :target',
  'server:subuser.create': 'Added :email as a subuser',
  'server:subuser.update': 'Updated the subuser permissions for :email',
  'server:subuser.delete': 'Removed :email as a subuser',
  'server:backup.start': 'Started a new backup :name',
  'server:backup.lock': 'Locked the :name backup',
  'server:backup.unlock': 'Unlocked the :name backup',
  'server:backup.delete': 'Deleted the :name backup',
  'server:backup.download': 'Downloaded the :name backup',
  'server:backup.restore': 'Restored the :name backup (deleted files: :truncate)',
  'server:backup.complete': 'Completed the :name backup',
  'server:backup.fail': 'The :name backup failed',
  'server:backup.restore-complete': 'Completed the restoration of the :name backup',
  'server:backup.restore-failed': 'The restoration of the :name backup failed',
  'server:startup.edit': 'Changed the :variable variable from ":old" to ":new"',
  'server:startup.image': 'Updated the Docker Image for the server from :old to :new',
  'server:settings.rename': 'Renamed the server from :old to :new',
  'server:settings.description': 'Changed the server description from :old to :new',
  'server:reinstall': 'Reinstalled server',
};

/** Laravel's placeholder syntax as upstream's transformer scans for it. */
const PLACEHOLDER = /:([\w.-]+\w)/g;

/**
 * The properties an event's description shows. A `one`/`other` description counts as showing none, as upstream
 * finds no single string for it, so its entries always offer their details.
 */
export function describedProperties(event: string): string[] {
  const description = (activityDescriptions as Record<string, ActivityDescription | undefined>)[event];
  if (typeof description !== 'string') return [];
  return [...description.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}
