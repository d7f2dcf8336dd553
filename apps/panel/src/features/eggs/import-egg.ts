import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import type { EggDefinition } from '@aerie/panel/features/eggs/ptdl/egg-definition';
import {
  deleteEggVariables,
  insertImportedVariable,
  listEggVariableEnvs,
  updateImportedVariable,
} from './egg-variables.repository';
import {
  findImportTarget,
  type ImportedEggColumns,
  insertImportedEgg,
  updateImportedEgg,
} from './eggs.repository';
import { findNestByName, insertNestNamed } from './nests.repository';

export interface ImportedEgg {
  id: number;
  uuid: string;
  name: string;
  nestId: number;
  nestName: string;
  /** false when an egg of the same uuid or name in the nest was updated. */
  created: boolean;
  variables: number;
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * Stores a parsed egg export in a nest (created when missing). An egg with the export's uuid, or else with its
 * name in that nest, is updated in place: its variables are matched by env_variable, new ones added and the ones
 * the export no longer has removed (with their server values). Runs in one transaction.
 */
export function importEgg(
  db: Db,
  egg: EggDefinition,
  options: { nestName: string; now?: Date },
): Promise<ImportedEgg> {
  return db.transaction().execute((tx) => importEggWithin(tx, egg, options));
}

/** importEgg inside the caller's transaction, so the caller can record the import with it (the audit log). */
export async function importEggWithin(
  tx: Tx,
  egg: EggDefinition,
  options: { nestName: string; now?: Date },
): Promise<ImportedEgg> {
  const now = options.now ?? new Date();
  const nest = await ensureNest(tx, options.nestName, egg.author, now);
  const existing = await findImportTarget(tx, { uuid: egg.uuid, nestId: nest.id, name: egg.name });
  const columns: ImportedEggColumns = {
    nest_id: nest.id,
    author: egg.author,
    name: egg.name,
    description: egg.description,
    features: json(egg.features),
    docker_images: json(egg.docker_images),
    file_denylist: json(egg.file_denylist),
    update_url: egg.update_url,
    config_files: egg.config.source.files,
    config_startup: egg.config.source.startup,
    config_logs: egg.config.source.logs,
    config_stop: egg.config.stop,
    startup: egg.startup,
    script_container: egg.scripts.installation.container,
    script_entry: egg.scripts.installation.entrypoint,
    script_install: egg.scripts.installation.script,
    updated_at: now,
  };
  let eggId: number;
  let uuid: string;
  if (existing) {
    await updateImportedEgg(tx, existing.id, columns);
    eggId = existing.id;
    uuid = existing.uuid;
  } else {
    uuid = egg.uuid ?? randomUUID();
    eggId = await insertImportedEgg(tx, columns, uuid, now);
  }
  await syncVariables(tx, eggId, egg, now);
  return {
    id: eggId,
    uuid,
    name: egg.name,
    nestId: nest.id,
    nestName: nest.name,
    created: !existing,
    variables: egg.variables.length,
  };
}

async function ensureNest(tx: Tx, name: string, author: string, now: Date) {
  const found = await findNestByName(tx, name);
  if (found) return found;
  return { id: await insertNestNamed(tx, { name, author }, now), name };
}

async function syncVariables(tx: Tx, eggId: number, egg: EggDefinition, now: Date) {
  const current = await listEggVariableEnvs(tx, eggId);
  const byEnv = new Map(current.map((row) => [row.env_variable, row.id]));
  const kept = new Set(egg.variables.map((variable) => variable.env_variable));
  const removed = current.filter((row) => !kept.has(row.env_variable)).map((row) => row.id);
  await deleteEggVariables(tx, removed);
  for (const [sort, variable] of egg.variables.entries()) {
    const values = {
      name: variable.name,
      description: variable.description,
      default_value: variable.default_value,
      user_viewable: variable.user_viewable,
      user_editable: variable.user_editable,
      rules: variable.rules,
      sort: sort + 1,
      updated_at: now,
    };
    const id = byEnv.get(variable.env_variable);
    if (id !== undefined) {
      await updateImportedVariable(tx, id, values);
    } else {
      await insertImportedVariable(tx, {
        ...values,
        egg_id: eggId,
        env_variable: variable.env_variable,
        created_at: now,
      });
    }
  }
}
