import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readDate } from '@aerie/panel/db/dialect';
import type { EggsTable, EggVariablesTable, NestsTable } from '@aerie/panel/db/schema-servers';
import type { Tx } from '@aerie/panel/db/transaction';
import { runList } from '@aerie/panel/http/application/list-query';
import type { Insertable, Selectable, Updateable } from 'kysely';

/**
 * SQL for eggs and the reads of nests and egg variables, with the shapes the Application API's transformers read
 * (nests.repository.ts and egg-variables.repository.ts write those two tables).
 */

export interface Nest {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An egg with its stored texts as they are (config blocks are JSON texts, as exported). */
export interface Egg {
  id: number;
  uuid: string;
  nestId: number;
  author: string;
  name: string;
  description: string | null;
  /** Feature flags of the export (`eula`, `java_version`…), or null. */
  features: string[] | null;
  updateUrl: string | null;
  /** Display label → image. */
  dockerImages: Record<string, string>;
  fileDenylist: string[] | null;
  configFiles: string | null;
  configStartup: string | null;
  configLogs: string | null;
  configStop: string | null;
  configFrom: number | null;
  startup: string | null;
  scriptContainer: string;
  scriptEntry: string;
  scriptInstall: string | null;
  scriptIsPrivileged: boolean;
  copyScriptFrom: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EggVariable {
  id: number;
  eggId: number;
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A JSON text's value, or `fallback` when the text is missing or not JSON. */
export function parseJsonText(text: string | null, fallback: unknown): unknown {
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

const toNest = (row: Selectable<NestsTable>): Nest => ({
  id: row.id,
  uuid: row.uuid,
  author: row.author,
  name: row.name,
  description: row.description,
  createdAt: readDate(row.created_at),
  updatedAt: readDate(row.updated_at),
});

function toEgg(row: Selectable<EggsTable>): Egg {
  const images = parseJsonText(row.docker_images, {});
  const denylist = parseJsonText(row.file_denylist, null);
  const features = parseJsonText(row.features, null);
  return {
    id: row.id,
    uuid: row.uuid,
    nestId: row.nest_id,
    author: row.author,
    name: row.name,
    description: row.description,
    features: Array.isArray(features) ? (features as string[]) : null,
    updateUrl: row.update_url,
    dockerImages:
      typeof images === 'object' && images !== null && !Array.isArray(images)
        ? (images as Record<string, string>)
        : {},
    fileDenylist: Array.isArray(denylist) ? (denylist as string[]) : null,
    configFiles: row.config_files,
    configStartup: row.config_startup,
    configLogs: row.config_logs,
    configStop: row.config_stop,
    configFrom: row.config_from,
    startup: row.startup,
    scriptContainer: row.script_container,
    scriptEntry: row.script_entry,
    scriptInstall: row.script_install,
    scriptIsPrivileged: readBool(row.script_is_privileged),
    copyScriptFrom: row.copy_script_from,
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}

const toEggVariable = (row: Selectable<EggVariablesTable>): EggVariable => ({
  id: row.id,
  eggId: row.egg_id,
  name: row.name,
  description: row.description,
  envVariable: row.env_variable,
  defaultValue: row.default_value,
  userViewable: readBool(row.user_viewable),
  userEditable: readBool(row.user_editable),
  rules: row.rules,
  createdAt: readDate(row.created_at),
  updatedAt: readDate(row.updated_at),
});

/** GET /api/application/nests: one page in id order (no filters or sorts upstream). */
export async function listNests(db: Db, page: { page: number; perPage: number }) {
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('nests').selectAll(),
    { ...page, filters: [], sort: null },
    'nests.id',
  );
  return { rows: rows.map(toNest), total };
}

export async function findNest(db: Db, id: number): Promise<Nest | null> {
  const row = await db.selectFrom('nests').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toNest(row) : null;
}

export async function findNests(db: Db, ids: number[]): Promise<Nest[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('nests').selectAll().where('id', 'in', ids).execute();
  return rows.map(toNest);
}

/** Every egg of the given nests, in id order. */
export async function listEggsOfNests(db: Db, nestIds: number[]): Promise<Egg[]> {
  if (nestIds.length === 0) return [];
  const rows = await db
    .selectFrom('eggs')
    .selectAll()
    .where('nest_id', 'in', nestIds)
    .orderBy('id')
    .execute();
  return rows.map(toEgg);
}

/** The egg when it belongs to that nest (`scopeBindings`: an egg of another nest is not found). */
export async function findEggInNest(db: Db, nestId: number, eggId: number): Promise<Egg | null> {
  const row = await db
    .selectFrom('eggs')
    .selectAll()
    .where('id', '=', eggId)
    .where('nest_id', '=', nestId)
    .executeTakeFirst();
  return row ? toEgg(row) : null;
}

export async function findEggs(db: Db, ids: number[]): Promise<Egg[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('eggs').selectAll().where('id', 'in', ids).execute();
  return rows.map(toEgg);
}

/** The variables of the given eggs, in their display order. */
export async function listEggVariables(db: Db, eggIds: number[]): Promise<EggVariable[]> {
  if (eggIds.length === 0) return [];
  const rows = await db
    .selectFrom('egg_variables')
    .selectAll()
    .where('egg_id', 'in', eggIds)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map(toEggVariable);
}

/** The nest holding the egg of that uuid, if any (an import must not move an egg out of another nest). */
export async function nestOfEggUuid(db: Db, uuid: string): Promise<number | null> {
  const row = await db.selectFrom('eggs').select('nest_id').where('uuid', '=', uuid).executeTakeFirst();
  return row ? row.nest_id : null;
}

export async function findEggVariable(
  db: Db,
  eggId: number,
  variableId: number,
): Promise<EggVariable | null> {
  const row = await db
    .selectFrom('egg_variables')
    .selectAll()
    .where('id', '=', variableId)
    .where('egg_id', '=', eggId)
    .executeTakeFirst();
  return row ? toEggVariable(row) : null;
}

/** How many servers use the egg, or any egg of the nest. */
export async function countServers(db: Db, where: { eggId: number } | { nestId: number }): Promise<number> {
  const row = await db
    .selectFrom('servers')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('eggId' in where ? 'egg_id' : 'nest_id', '=', 'eggId' in where ? where.eggId : where.nestId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Writes these columns of the egg (the Application API's edit; the caller names only columns of `eggs`). */
export async function updateEggColumns(db: Db | Tx, id: number, set: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('eggs')
    .set(set as Updateable<EggsTable>)
    .where('id', '=', id)
    .execute();
}

/** Whether another egg takes its configuration or its install script from this one. */
export async function eggHasChildren(db: Db | Tx, eggId: number): Promise<boolean> {
  const child = await db
    .selectFrom('eggs')
    .select('id')
    .where((eb) => eb.or([eb('config_from', '=', eggId), eb('copy_script_from', '=', eggId)]))
    .executeTakeFirst();
  return child !== undefined;
}

/** Deletes the egg; its variables go by cascade. */
export async function deleteEgg(db: Db | Tx, id: number): Promise<void> {
  await db.deleteFrom('eggs').where('id', '=', id).execute();
}

/** The egg an import updates: the one with the export's uuid, or else the nest's egg of that name (lowest id). */
export function findImportTarget(db: Db | Tx, target: { uuid: string | null; nestId: number; name: string }) {
  const { uuid, nestId, name } = target;
  return db
    .selectFrom('eggs')
    .select(['id', 'uuid'])
    .where((eb) =>
      uuid
        ? eb.or([eb('uuid', '=', uuid), eb.and([eb('nest_id', '=', nestId), eb('name', '=', name)])])
        : eb.and([eb('nest_id', '=', nestId), eb('name', '=', name)]),
    )
    .orderBy('id')
    .executeTakeFirst();
}

/** The columns an import writes of an egg. */
export type ImportedEggColumns = Omit<Insertable<EggsTable>, 'uuid' | 'created_at'>;

export async function updateImportedEgg(db: Db | Tx, id: number, columns: ImportedEggColumns): Promise<void> {
  await db.updateTable('eggs').set(columns).where('id', '=', id).execute();
}

/**
 * Inserts an imported egg and reads its id back by its uuid (MySQL has no RETURNING; the same way on every
 * dialect). @returns the new id
 */
export async function insertImportedEgg(
  db: Db | Tx,
  columns: ImportedEggColumns,
  uuid: string,
  now: Date,
): Promise<number> {
  await db
    .insertInto('eggs')
    .values({ ...columns, uuid, created_at: now })
    .execute();
  const row = await db.selectFrom('eggs').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return row.id;
}
