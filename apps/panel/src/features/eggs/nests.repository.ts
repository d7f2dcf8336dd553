import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';

/** SQL that writes nests (the reads, with the Nest shape, are in eggs.repository.ts). */

/**
 * @returns the new nest's id
 * @throws the driver's unique-violation error when the name is taken
 */
export function insertNest(
  db: Db | Tx,
  nest: { author: string; name: string; description: string | null },
  now: Date,
): Promise<number> {
  return insertReturningId(
    db,
    db.insertInto('nests').values({
      uuid: randomUUID(),
      author: nest.author,
      name: nest.name,
      description: nest.description,
      created_at: now,
      updated_at: now,
    }),
  );
}

/** @throws the driver's unique-violation error when another nest has the name */
export async function updateNest(
  db: Db | Tx,
  id: number,
  values: { name: string; description: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('nests')
    .set({ name: values.name, description: values.description, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes the nest; its eggs and their variables go by cascade. */
export async function deleteNest(db: Db | Tx, id: number): Promise<void> {
  await db.deleteFrom('nests').where('id', '=', id).execute();
}

export function findNestByName(db: Db | Tx, name: string) {
  return db.selectFrom('nests').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

/**
 * Inserts a nest of that name and reads its id back by its uuid (MySQL has no RETURNING; the same way on every
 * dialect, as the importer always did).
 */
export async function insertNestNamed(
  tx: Db | Tx,
  nest: { name: string; author: string },
  now: Date,
): Promise<number> {
  const uuid = randomUUID();
  await tx
    .insertInto('nests')
    .values({
      uuid,
      name: nest.name,
      author: nest.author,
      description: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const row = await tx.selectFrom('nests').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return row.id;
}
