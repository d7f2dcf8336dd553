import type { Db } from '@aerie/panel/db/database';

/** SQL of a page of servers' relations (server-relations.ts): one query per relation, whatever the page size. */

export async function nodeRowsOf(db: Db, nodeIds: readonly number[]) {
  return db
    .selectFrom('nodes')
    .selectAll()
    .where('id', 'in', [...nodeIds])
    .execute();
}

/** The eggs with the features of the egg each copies its configuration from. */
export async function eggSummariesOf(db: Db, eggIds: readonly number[]) {
  return db
    .selectFrom('eggs')
    .leftJoin('eggs as parent', 'parent.id', 'eggs.config_from')
    .select(['eggs.id', 'eggs.uuid', 'eggs.name', 'eggs.features', 'parent.features as parent_features'])
    .where('eggs.id', 'in', [...eggIds])
    .execute();
}

export async function allocationRowsOf(db: Db, serverIds: readonly number[]) {
  return db
    .selectFrom('allocations')
    .select(['id', 'ip', 'ip_alias', 'port', 'notes', 'server_id'])
    .where('server_id', 'in', [...serverIds])
    .orderBy('id')
    .execute();
}

/** The eggs' variables in the order their eggs list them. */
export async function eggVariableRowsOf(db: Db, eggIds: readonly number[]) {
  return db
    .selectFrom('egg_variables')
    .selectAll()
    .where('egg_id', 'in', [...eggIds])
    .orderBy('sort')
    .orderBy('id')
    .execute();
}
