import type { Db } from '@aerie/panel/db/database';
import { readCount } from '@aerie/panel/db/dialect';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';

/** SQL of the admin overview: the nodes, and servers counted by status. */

export async function listNodes(db: Db): Promise<NodeRecord[]> {
  const rows = await db.selectFrom('nodes').selectAll().orderBy('id').execute();
  return rows.map(toNodeRecord);
}

/** How many servers have each status (null: installed and normal). */
export async function countServersByStatus(db: Db): Promise<{ status: string | null; count: number }[]> {
  const rows = await db
    .selectFrom('servers')
    .select((eb) => ['status', eb.fn.countAll().as('count')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: readCount(row.count) }));
}
