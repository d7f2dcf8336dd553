import * as m0001 from '@aerie/panel/db/migrations/0001-users-sessions-auth';
import * as m0002 from '@aerie/panel/db/migrations/0002-account-api-keys-settings';
import * as m0003 from '@aerie/panel/db/migrations/0003-servers';
import * as m0004 from '@aerie/panel/db/migrations/0004-application-api';
import * as m0005 from '@aerie/panel/db/migrations/0005-user-ssh-keys';
import * as m0006 from '@aerie/panel/db/migrations/0006-activity-logs';
import * as m0007 from '@aerie/panel/db/migrations/0007-schedules';
import * as m0008 from '@aerie/panel/db/migrations/0008-backups';
import * as m0009 from '@aerie/panel/db/migrations/0009-server-databases';
import * as m0010 from '@aerie/panel/db/migrations/0010-sign-in-addresses';
import * as m0011 from '@aerie/panel/db/migrations/0011-server-search-index';
import * as m0012 from '@aerie/panel/db/migrations/0012-schedule-run-progress';
import * as m0013 from '@aerie/panel/db/migrations/0013-mounts';
import * as m0014 from '@aerie/panel/db/migrations/0014-transfer-details';
import * as m0015 from '@aerie/panel/db/migrations/0015-admin-audit-log';
import * as m0016 from '@aerie/panel/db/migrations/0016-admin-roles';
import * as m0017 from '@aerie/panel/db/migrations/0017-passkeys';
import * as m0018 from '@aerie/panel/db/migrations/0018-oauth-providers';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database';

/** Every migration, in order. Listed here rather than read from disk so tsx, tests and bundlers agree. */
const migrations: Record<string, Migration> = {
  '0001-users-sessions-auth': m0001,
  '0002-account-api-keys-settings': m0002,
  '0003-servers': m0003,
  '0004-application-api': m0004,
  '0005-user-ssh-keys': m0005,
  '0006-activity-logs': m0006,
  '0007-schedules': m0007,
  '0008-backups': m0008,
  '0009-server-databases': m0009,
  '0010-sign-in-addresses': m0010,
  '0011-server-search-index': m0011,
  '0012-schedule-run-progress': m0012,
  '0013-mounts': m0013,
  '0014-transfer-details': m0014,
  '0015-admin-audit-log': m0015,
  '0016-admin-roles': m0016,
  '0017-passkeys': m0017,
  '0018-oauth-providers': m0018,
};

const migratorFor = (db: Db) => new Migrator({ db, provider: { getMigrations: async () => migrations } });

/**
 * Brings the schema up to date. Safe to run concurrently: Kysely takes a lock table first.
 * @returns the names of the migrations applied in this run
 * @throws the migration's error (with the failing migration's name) when one fails
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return unwrap(await migratorFor(db).migrateToLatest());
}

/** Names of migrations not yet applied to this database. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await migratorFor(db).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${message}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
