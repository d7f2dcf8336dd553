import type { ColumnType, Generated } from 'kysely';
import type { DbBool, DbDate } from './schema-columns';

/** The table of migration 0006-activity-logs. Read booleans and dates through db/dialect.ts. */
export interface ActivityLogsTable {
  id: Generated<number>;
  batch: string | null;
  /** An `ActivityEvent` (packages/shared/src/activity/activity-events.ts). */
  event: string;
  ip: string;
  /** Who did it; null for a sign-in attempt before anyone is signed in, or a user deleted since. */
  actor_id: number | null;
  is_api: ColumnType<DbBool, boolean, boolean>;
  /** The server it concerns: the entry is in that server's log. */
  server_id: number | null;
  /** The account it concerns: the entry is in that user's account log. */
  subject_user_id: number | null;
  /** JSON object. */
  properties: string;
  timestamp: ColumnType<DbDate, Date, never>;
}

export interface ActivityTables {
  activity_logs: ActivityLogsTable;
}
