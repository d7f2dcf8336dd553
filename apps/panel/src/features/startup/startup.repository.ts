import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation, readBool } from '@aerie/panel/db/dialect';
import type { ServerVariableRecord } from '@aerie/panel/features/servers/server-relations';

/** An egg variable of the server with its value, and the id its value is stored under. */
export interface StartupVariable extends ServerVariableRecord {
  id: number;
}

/** Every variable of the server's egg (viewable or not: the command needs them all), in the egg's order. */
export async function startupVariables(
  db: Db,
  server: { id: number; eggId: number },
): Promise<StartupVariable[]> {
  const rows = await db
    .selectFrom('egg_variables')
    .leftJoin('server_variables', (join) =>
      join
        .onRef('server_variables.variable_id', '=', 'egg_variables.id')
        .on('server_variables.server_id', '=', server.id),
    )
    .select([
      'egg_variables.id',
      'egg_variables.name',
      'egg_variables.description',
      'egg_variables.env_variable',
      'egg_variables.default_value',
      'egg_variables.user_viewable',
      'egg_variables.user_editable',
      'egg_variables.rules',
      'server_variables.variable_value',
    ])
    .where('egg_variables.egg_id', '=', server.eggId)
    .orderBy('egg_variables.sort')
    .orderBy('egg_variables.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    envVariable: row.env_variable,
    defaultValue: row.default_value,
    serverValue: row.variable_value,
    userViewable: readBool(row.user_viewable),
    userEditable: readBool(row.user_editable),
    rules: row.rules,
  }));
}

/** The primary allocation's address, which `{{SERVER_IP}}` and `{{SERVER_PORT}}` stand for. */
export async function primaryAddress(db: Db, allocationId: number): Promise<{ ip: string; port: number }> {
  const row = await db
    .selectFrom('allocations')
    .select(['ip', 'port'])
    .where('id', '=', allocationId)
    .executeTakeFirstOrThrow();
  return { ip: row.ip, port: Number(row.port) };
}

/** Stores the server's value of one variable (insert or update; a parallel insert of the same row wins). */
export async function storeVariableValue(
  db: Db,
  serverId: number,
  variableId: number,
  value: string,
  now: Date,
): Promise<void> {
  // Read first: MySQL counts an update that changes nothing as no row, so the row count cannot tell.
  const update = () =>
    db
      .updateTable('server_variables')
      .set({ variable_value: value, updated_at: now })
      .where('server_id', '=', serverId)
      .where('variable_id', '=', variableId)
      .execute();
  const existing = await db
    .selectFrom('server_variables')
    .select('id')
    .where('server_id', '=', serverId)
    .where('variable_id', '=', variableId)
    .executeTakeFirst();
  if (existing) {
    await update();
    return;
  }
  try {
    await db
      .insertInto('server_variables')
      .values({
        server_id: serverId,
        variable_id: variableId,
        variable_value: value,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await update();
  }
}
