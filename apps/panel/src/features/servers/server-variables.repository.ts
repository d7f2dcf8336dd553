import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';

/** SQL of `server_variables`: each server's values of its egg's variables. */

/** The stored values of these servers, one row per server and variable that has one. */
export async function serverVariableValues(db: Db | Tx, serverIds: readonly number[]) {
  if (serverIds.length === 0) return [];
  return db
    .selectFrom('server_variables')
    .select(['server_id', 'variable_id', 'variable_value'])
    .where('server_id', 'in', [...new Set(serverIds)])
    .execute();
}

/** Writes one value per variable of the server (insert or update). */
export async function storeVariables(tx: Tx, serverId: number, values: Map<number, string>, now: Date) {
  const have = new Set((await serverVariableValues(tx, [serverId])).map((row) => row.variable_id));
  for (const [variableId, value] of values) {
    if (have.has(variableId)) {
      await tx
        .updateTable('server_variables')
        .set({ variable_value: value, updated_at: now })
        .where('server_id', '=', serverId)
        .where('variable_id', '=', variableId)
        .execute();
    }
  }
  const fresh = [...values].filter(([variableId]) => !have.has(variableId));
  if (fresh.length > 0) {
    await tx
      .insertInto('server_variables')
      .values(
        fresh.map(([variableId, value]) => ({
          server_id: serverId,
          variable_id: variableId,
          variable_value: value,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
