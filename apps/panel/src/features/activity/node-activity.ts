import type { Db } from '@aerie/panel/db/database';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { findUserIdsByUuid } from '@aerie/panel/features/users/user-lookups';
import type { Log } from '@aerie/panel/logging/log';
import type { z } from 'zod';
import { nodeServersByUuid } from './activity.repository';
import { type ActivityEntry, recordActivities } from './activity-log';
import type { remoteActivityBodySchema } from './remote-activity-body';

type ReportedRow = z.output<typeof remoteActivityBodySchema>['data'][number];

/**
 * The activity a node reports (`POST /api/remote/activity`, its SFTP server's events), written as its users' own:
 * the user is the actor, the address the client's. A row about a server of another node, or a user the panel does
 * not know, is dropped (as Pterodactyl's ActivityProcessingController does): a node never writes into another
 * node's servers' logs, and one stale row (a server moved or deleted since) does not refuse the rows beside it,
 * which the node would otherwise hold forever. A timestamp after the panel's now (a node's clock ahead) is now.
 */
export class NodeActivity {
  constructor(private readonly deps: { db: Db; clock: () => Date; log: Log }) {}

  /** @returns how many rows were written; the rest were dropped */
  async record(node: NodeRecord, rows: readonly ReportedRow[]): Promise<number> {
    const { db, clock, log } = this.deps;
    const serverUuids = [...new Set(rows.map((row) => row.server.toLowerCase()))];
    const userUuids = [...new Set(rows.map((row) => row.user.toLowerCase()))];
    const servers = new Map(
      (await nodeServersByUuid(db, node.id, serverUuids)).map((server) => [
        server.uuid.toLowerCase(),
        { id: server.id },
      ]),
    );
    const users = new Map(
      (await findUserIdsByUuid(db, userUuids)).map((user) => [user.uuid.toLowerCase(), { id: user.id }]),
    );
    const now = clock();
    const entries: ActivityEntry[] = [];
    for (const row of rows) {
      const server = servers.get(row.server.toLowerCase());
      const actor = users.get(row.user.toLowerCase());
      if (!server || !actor) continue;
      const at = new Date(Date.parse(row.timestamp));
      entries.push({
        event: row.event,
        actor,
        server,
        properties: row.metadata ?? {},
        ip: row.ip ?? '',
        isApi: false,
        at: at.getTime() > now.getTime() ? now : at,
      });
    }
    if (entries.length < rows.length) {
      log.warn(
        { node: node.id, dropped: rows.length - entries.length },
        'Dropped activity a node reported for servers not on it or unknown users',
      );
    }
    if (entries.length > 0) {
      await db.transaction().execute((tx) => recordActivities(tx, entries, now));
    }
    return entries.length;
  }
}
