import type { Db } from '@aerie/panel/db/database';
import { type DialectName, dialectOf, readBool, readCount } from '@aerie/panel/db/dialect';
import { likeAnyCase, likeEscaped } from '@aerie/panel/db/like';
import type { Database } from '@aerie/panel/db/schema';
import type { User } from '@aerie/panel/features/users/user';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { ServerListQuery } from './server-list.query';
import { type ServerRecord, serverRecordColumns, toServerRecord } from './server-record';
import { parsePermissions } from './stored-permissions';

type ServersEb = ExpressionBuilder<Database, 'servers'>;

/** An IPv4 address with an optional `:port` part, as the reference's search recognises it. */
const IPV4_WITH_PORT =
  /^(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)(?::\d{1,5})?$/;
const PORT_ONLY = /^:\d{1,5}$/;

type TextColumn = 'servers.name' | 'servers.uuid' | 'servers.description' | 'servers.external_id';

/** Only these characters can start a uuid or make an identifier: other terms skip those comparisons. */
const UUID_CHARACTERS = /^[0-9a-f-]+$/i;

/**
 * Ports whose decimal form starts with `digits`, as ranges of whole numbers: "255" → 255, 2550-2559,
 * 25500-25599. Unlike a LIKE on a cast, this reads the same on every dialect and can use the port index.
 */
export function portPrefixRanges(digits: string): [number, number][] {
  const ranges: [number, number][] = [];
  const base = Number(digits);
  for (let width = digits.length, scale = 1; width <= 5; width++, scale *= 10) {
    const from = base * scale;
    if (from > 65535) break;
    ranges.push([from, Math.min(65535, (base + 1) * scale - 1)]);
  }
  return ranges;
}

function searchCondition(eb: ServersEb, dialect: DialectName, value: string): Expression<SqlBool> {
  if (IPV4_WITH_PORT.test(value) || PORT_ONLY.test(value)) {
    const [ip = '', port = ''] = value.split(':');
    return eb.exists(
      eb
        .selectFrom('allocations')
        .select('allocations.id')
        .whereRef('allocations.server_id', '=', 'servers.id')
        .$if(ip !== '', (q) => q.where('allocations.ip', '=', ip))
        .$if(port !== '', (q) =>
          q.where((a) =>
            a.or(portPrefixRanges(port).map(([from, to]) => a.between('allocations.port', from, to))),
          ),
        ),
    );
  }
  const conditions: Expression<SqlBool>[] = [
    eb('servers.external_id', '=', value),
    likeAnyCase(dialect, 'servers.name', `%${likeEscaped(value)}%`),
  ];
  if (UUID_CHARACTERS.test(value)) {
    conditions.push(
      eb('servers.uuid', '=', value),
      likeAnyCase(dialect, 'servers.uuid', `${likeEscaped(value)}%`),
      eb('servers.uuid_short', '=', value),
    );
  }
  return eb.or(conditions);
}

/** Which servers a list type shows to `user` (§8): non-admins asking for admin lists get none. */
function typeCondition(eb: ServersEb, user: User, type: ServerListQuery['type']): Expression<SqlBool> {
  const accessible = eb.or([
    eb('servers.owner_id', '=', user.id),
    eb(
      'servers.id',
      'in',
      eb.selectFrom('subusers').select('subusers.server_id').where('subusers.user_id', '=', user.id),
    ),
  ]);
  if (type === 'owner') return eb('servers.owner_id', '=', user.id);
  if (type === 'admin' || type === 'admin-all') {
    if (!user.rootAdmin) return sql<SqlBool>`1 = 0`;
    return type === 'admin-all' ? sql<SqlBool>`1 = 1` : eb.not(accessible);
  }
  return accessible;
}

function whereList(
  eb: ServersEb,
  dialect: DialectName,
  user: User,
  query: ServerListQuery,
): Expression<SqlBool> {
  const conditions = [typeCondition(eb, user, query.type)];
  for (const [filter, parts] of Object.entries(query.partial)) {
    const column = `servers.${filter}` as TextColumn;
    conditions.push(eb.or(parts.map((part) => likeAnyCase(dialect, column, `%${likeEscaped(part)}%`))));
  }
  if (query.search !== null) conditions.push(searchCondition(eb, dialect, query.search));
  return eb.and(conditions);
}

/** A page of the list: the servers, and per server what the viewer-dependent parts of its item need. */
export interface ServerListPage {
  servers: ServerRecord[];
  total: number;
  /** Which of the page's servers have a transfer running. */
  transferring: Set<number>;
  /** The viewer's stored permissions on the page's servers it is a subuser of. */
  subuserPermissions: Map<number, string[]>;
}

/**
 * One page of the servers `user` asked for, ordered by id, and how many match in all (at most two queries). The
 * page's query also reads, per server, whether a transfer runs and the viewer's subuser permissions (correlated
 * look-ups on server_transfers(server_id) and subusers(user_id, server_id)), which were two more statements.
 */
export async function listServers(db: Db, user: User, query: ServerListQuery): Promise<ServerListPage> {
  const dialect = dialectOf(db);
  const offset = (query.page - 1) * query.perPage;
  const rows = await db
    .selectFrom('servers')
    .select(serverRecordColumns)
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('server_transfers')
            .select('server_transfers.id')
            .whereRef('server_transfers.server_id', '=', 'servers.id')
            .where('server_transfers.successful', 'is', null),
        )
        .as('is_transferring'),
      eb
        .selectFrom('subusers')
        .select('subusers.permissions')
        .whereRef('subusers.server_id', '=', 'servers.id')
        .where('subusers.user_id', '=', user.id)
        .as('viewer_permissions'),
    ])
    .where((eb) => whereList(eb, dialect, user, query))
    .orderBy('servers.id')
    .limit(query.perPage)
    .offset(offset)
    .execute();
  // A page that is not full and not empty is the last one: the total is known without counting.
  const total =
    rows.length > 0 && rows.length < query.perPage
      ? offset + rows.length
      : readCount(
          (
            await db
              .selectFrom('servers')
              .select((eb) => eb.fn.countAll().as('count'))
              .where((eb) => whereList(eb, dialect, user, query))
              .executeTakeFirstOrThrow()
          ).count as number | string,
        );
  const transferring = new Set<number>();
  const subuserPermissions = new Map<number, string[]>();
  for (const row of rows) {
    if (readBool(row.is_transferring as number | boolean)) transferring.add(row.id);
    if (row.viewer_permissions != null)
      subuserPermissions.set(row.id, parsePermissions(row.viewer_permissions));
  }
  return { servers: rows.map(toServerRecord), total, transferring, subuserPermissions };
}
