import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readCount, readDate } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import { likeAnyCase, likeEscaped } from '@aerie/panel/db/like';
import type { Database } from '@aerie/panel/db/schema';
import type { ActivityLogsTable } from '@aerie/panel/db/schema-activity';
import type { Tx } from '@aerie/panel/db/transaction';
import { unlistedActivityEvents } from '@aerie/shared/activity/activity-events';
import type { ExpressionBuilder, Insertable } from 'kysely';
import type { ActivityListQuery } from './activity-list.query';

/** An entry as the lists read it, with its actor (null when there is none, or no longer). */
export interface ActivityRecord {
  id: number;
  batch: string | null;
  event: string;
  ip: string;
  isApi: boolean;
  properties: Record<string, unknown>;
  timestamp: Date;
  actor: {
    id: number;
    uuid: string;
    username: string;
    email: string;
    useTotp: boolean;
    rootAdmin: boolean;
    createdAt: Date;
  } | null;
}

/** Whose log: a server's, or an account's. */
export type ActivityScope =
  | {
      serverId: number;
      /**
       * Leaves out root admins' entries unless the admin is one of these users (the owner and the subusers):
       * `APP_ACTIVITY_HIDE_ADMIN`.
       */
      hideAdminsExcept?: number[] | undefined;
    }
  | { subjectUserId: number };

type Eb = ExpressionBuilder<Database & { actor: Database['users'] }, 'activity_logs' | 'actor'>;

function conditions(
  eb: Eb,
  dialect: ReturnType<typeof dialectOf>,
  scope: ActivityScope,
  query: ActivityListQuery,
) {
  const all = [eb('activity_logs.event', 'not in', [...unlistedActivityEvents])];
  if ('serverId' in scope) {
    all.push(eb('activity_logs.server_id', '=', scope.serverId));
    if (scope.hideAdminsExcept) {
      const members = scope.hideAdminsExcept;
      all.push(
        eb.or([
          eb('actor.id', 'is', null),
          eb('actor.root_admin', '=', false),
          ...(members.length > 0 ? [eb('actor.id', 'in', members)] : []),
        ]),
      );
    }
  } else {
    all.push(eb('activity_logs.subject_user_id', '=', scope.subjectUserId));
  }
  if (query.events.length > 0) {
    all.push(
      eb.or(
        query.events.map((part) => likeAnyCase(dialect, 'activity_logs.event', `%${likeEscaped(part)}%`)),
      ),
    );
  }
  return eb.and(all);
}

/** One page of a log, newest first unless asked otherwise, and how many entries the log holds in all. */
export async function listActivity(
  db: Db,
  scope: ActivityScope,
  query: ActivityListQuery,
): Promise<{ records: ActivityRecord[]; total: number }> {
  const dialect = dialectOf(db);
  const base = db
    .selectFrom('activity_logs')
    .leftJoin('users as actor', 'actor.id', 'activity_logs.actor_id')
    .where((eb) => conditions(eb, dialect, scope, query));
  const direction = query.newestFirst ? 'desc' : 'asc';
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst(),
    base
      .select([
        'activity_logs.id',
        'activity_logs.batch',
        'activity_logs.event',
        'activity_logs.ip',
        'activity_logs.is_api',
        'activity_logs.properties',
        'activity_logs.timestamp',
        'actor.id as actor_id',
        'actor.uuid as actor_uuid',
        'actor.username as actor_username',
        'actor.email as actor_email',
        'actor.use_totp as actor_use_totp',
        'actor.root_admin as actor_root_admin',
        'actor.created_at as actor_created_at',
      ])
      .orderBy('activity_logs.timestamp', direction)
      .orderBy('activity_logs.id', direction)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute(),
  ]);
  return {
    total: readCount(count?.count),
    records: rows.map((row) => ({
      id: Number(row.id),
      batch: row.batch,
      event: row.event,
      ip: row.ip,
      isApi: readBool(row.is_api),
      properties: parseProperties(row.properties),
      timestamp: readDate(row.timestamp),
      actor:
        row.actor_id === null || row.actor_uuid === null
          ? null
          : {
              id: Number(row.actor_id),
              uuid: row.actor_uuid,
              username: row.actor_username as string,
              email: row.actor_email as string,
              useTotp: readBool(row.actor_use_totp),
              rootAdmin: readBool(row.actor_root_admin),
              createdAt: readDate(row.actor_created_at as Date | string),
            },
    })),
  };
}

function parseProperties(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** An entry's row as written (activity-log.ts makes it from an ActivityEntry). */
export type ActivityRow = Insertable<ActivityLogsTable>;

/** @returns the entry's id */
export function insertActivity(db: Db | Tx, row: ActivityRow): Promise<number> {
  return insertReturningId(db, db.insertInto('activity_logs').values(row));
}

/** Many entries in one statement (the caller keeps each batch to a size every driver takes). */
export async function insertActivities(db: Db | Tx, rows: ActivityRow[]): Promise<void> {
  await db.insertInto('activity_logs').values(rows).execute();
}

export async function updateActivityProperties(
  db: Db | Tx,
  id: number,
  propertiesJson: string,
): Promise<void> {
  await db.updateTable('activity_logs').set({ properties: propertiesJson }).where('id', '=', id).execute();
}

/** The ids of the node's servers with these uuids (stored lower-cased), by uuid. */
export function nodeServersByUuid(db: Db | Tx, nodeId: number, uuids: string[]) {
  return db
    .selectFrom('servers')
    .select(['id', 'uuid'])
    .where('node_id', '=', nodeId)
    .where('uuid', 'in', uuids)
    .execute();
}
