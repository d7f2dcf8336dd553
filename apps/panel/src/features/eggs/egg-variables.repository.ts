import type { Db } from '@aerie/panel/db/database';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';

/** SQL that writes egg variables (the reads, with the EggVariable shape, are in eggs.repository.ts). */

/** The columns an Application API edit writes. */
export interface EggVariableColumns {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: boolean;
  user_editable: boolean;
  rules: string;
}

/** Whether another variable of the egg (not `exceptId`) has the env variable. */
export async function envVariableTaken(
  db: Db | Tx,
  eggId: number,
  env: string,
  exceptId: number | null,
): Promise<boolean> {
  let query = db
    .selectFrom('egg_variables')
    .select('id')
    .where('egg_id', '=', eggId)
    .where('env_variable', '=', env);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Adds a variable after the egg's last one. @returns its id */
export async function appendEggVariable(
  tx: Db | Tx,
  eggId: number,
  columns: EggVariableColumns,
  now: Date,
): Promise<number> {
  const last = await tx
    .selectFrom('egg_variables')
    .select((eb) => eb.fn.max('sort').as('sort'))
    .where('egg_id', '=', eggId)
    .executeTakeFirst();
  return insertReturningId(
    tx,
    tx.insertInto('egg_variables').values({
      egg_id: eggId,
      ...columns,
      sort: Number(last?.sort ?? 0) + 1,
      created_at: now,
      updated_at: now,
    }),
  );
}

/** Gives every server of the egg `value` for the variable. */
export async function addValueToServersOfEgg(
  tx: Db | Tx,
  eggId: number,
  variableId: number,
  value: string,
  now: Date,
): Promise<void> {
  const servers = await tx.selectFrom('servers').select('id').where('egg_id', '=', eggId).execute();
  for (const server of servers) {
    await tx
      .insertInto('server_variables')
      .values({
        server_id: server.id,
        variable_id: variableId,
        variable_value: value,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

export async function updateEggVariable(
  db: Db | Tx,
  id: number,
  columns: EggVariableColumns,
  now: Date,
): Promise<void> {
  await db
    .updateTable('egg_variables')
    .set({ ...columns, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes the variable and the servers' values of it. */
export async function deleteEggVariable(tx: Db | Tx, id: number): Promise<void> {
  await tx.deleteFrom('server_variables').where('variable_id', '=', id).execute();
  await tx.deleteFrom('egg_variables').where('id', '=', id).execute();
}

/** The egg's variables by id and env variable, for an import to match them. */
export function listEggVariableEnvs(tx: Db | Tx, eggId: number) {
  return tx.selectFrom('egg_variables').select(['id', 'env_variable']).where('egg_id', '=', eggId).execute();
}

/** Deletes these variables (their server values go by cascade). */
export async function deleteEggVariables(tx: Db | Tx, ids: number[]): Promise<void> {
  if (ids.length > 0) await tx.deleteFrom('egg_variables').where('id', 'in', ids).execute();
}

/** What an import writes of a variable. */
export interface ImportedVariableValues {
  name: string;
  description: string;
  default_value: string;
  user_viewable: boolean;
  user_editable: boolean;
  rules: string;
  sort: number;
  updated_at: Date;
}

export async function updateImportedVariable(
  tx: Db | Tx,
  id: number,
  values: ImportedVariableValues,
): Promise<void> {
  await tx.updateTable('egg_variables').set(values).where('id', '=', id).execute();
}

export async function insertImportedVariable(
  tx: Db | Tx,
  variable: ImportedVariableValues & { egg_id: number; env_variable: string; created_at: Date },
): Promise<void> {
  await tx.insertInto('egg_variables').values(variable).execute();
}
