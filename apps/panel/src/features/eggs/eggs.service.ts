import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import { displayError } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import {
  type EggUpdateBody,
  type EggVariableBody,
  eggMessages,
  type NestBody,
} from '@aerie/shared/eggs/egg-bodies';
import {
  addValueToServersOfEgg,
  appendEggVariable,
  deleteEggVariable,
  type EggVariableColumns,
  envVariableTaken,
  updateEggVariable,
} from './egg-variables.repository';
import {
  countServers,
  deleteEgg,
  type Egg,
  type EggVariable,
  eggHasChildren,
  findEggs,
  findEggVariable,
  findNest,
  type Nest,
  nestOfEggUuid,
  parseJsonText,
  updateEggColumns,
} from './eggs.repository';
import { importEgg } from './import-egg';
import { deleteNest, insertNest, updateNest } from './nests.repository';
import type { EggDefinition } from './ptdl/egg-definition';

/**
 * Nests, eggs and egg variables written through the Application API: the import into a nest (with the importer
 * the CLI uses), nest create/update/delete, egg edits and deletion, and the egg's variables.
 */
export class EggsService {
  constructor(private readonly deps: { db: Db; clock: () => Date }) {}

  /**
   * Imports the egg into `nest`, or updates the nest's egg of the same uuid or name in place (`created` false).
   * An export whose uuid belongs to an egg of another nest becomes a new egg with a uuid of its own (as
   * upstream's import always does), so importing never moves an egg, and its servers, out of its nest.
   */
  async importInto(nest: Nest, definition: EggDefinition): Promise<{ egg: Egg; created: boolean }> {
    const { db } = this.deps;
    let egg = definition;
    if (egg.uuid !== null) {
      const holder = await nestOfEggUuid(db, egg.uuid);
      if (holder !== null && holder !== nest.id) egg = { ...egg, uuid: null };
    }
    const imported = await importEgg(db, egg, { nestName: nest.name, now: this.deps.clock() });
    const [stored] = await findEggs(db, [imported.id]);
    return { egg: stored as Egg, created: imported.created };
  }

  /** @throws HttpError 422 when the name is taken (nest names are unique here) */
  async createNest(input: NestBody, author: string): Promise<Nest> {
    const { db } = this.deps;
    const now = this.deps.clock();
    const id = await uniqueName(() =>
      insertNest(db, { author, name: input.name, description: input.description ?? null }, now),
    );
    return (await findNest(db, id)) as Nest;
  }

  /** @throws HttpError 422 when another nest has the name */
  async updateNest(nest: Nest, input: NestBody): Promise<Nest> {
    await uniqueName(() =>
      updateNest(
        this.deps.db,
        nest.id,
        { name: input.name, description: input.description ?? null },
        this.deps.clock(),
      ),
    );
    return (await findNest(this.deps.db, nest.id)) as Nest;
  }

  /**
   * Deletes the nest with its eggs and their variables, unless a server uses one of them (NestDeletionService).
   * @throws HttpError 400 DisplayException while the nest has servers
   */
  async deleteNest(nest: Nest): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if ((await countServers(tx, { nestId: nest.id })) > 0) throw displayError(eggMessages.nestHasServers);
      await deleteNest(tx, nest.id);
    });
  }

  /** Changes the fields sent; `config_startup` replaces the done entries of the start-up configuration. */
  async updateEgg(egg: Egg, input: EggUpdateBody): Promise<Egg> {
    const set: Record<string, unknown> = { updated_at: this.deps.clock() };
    const copy = <K extends keyof EggUpdateBody>(field: K, column: string, map = (v: unknown) => v) => {
      if (input[field] !== undefined) set[column] = map(input[field]);
    };
    copy('name', 'name');
    copy('description', 'description');
    copy('docker_images', 'docker_images', (images) => JSON.stringify(images));
    copy('startup', 'startup');
    copy('config_stop', 'config_stop');
    copy('file_denylist', 'file_denylist', (list) => (list === null ? null : JSON.stringify(list)));
    copy('script_install', 'script_install');
    copy('script_container', 'script_container');
    copy('script_entry', 'script_entry');
    copy('script_is_privileged', 'script_is_privileged');
    copy('features', 'features', (list) => (list === null ? null : JSON.stringify(list)));
    if (input.config_startup !== undefined) {
      const current = parseJsonText(egg.configStartup, {});
      const startup =
        typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current } : {};
      if (input.config_startup === null) delete (startup as Record<string, unknown>).done;
      else (startup as Record<string, unknown>).done = input.config_startup;
      set.config_startup = JSON.stringify(startup, null, 4);
    }
    await updateEggColumns(this.deps.db, egg.id, set);
    return (await findEggs(this.deps.db, [egg.id]))[0] as Egg;
  }

  /**
   * Deletes the egg and its variables unless servers use it or other eggs extend it (EggDeletionService).
   * @throws HttpError 400 DisplayException
   */
  async deleteEgg(egg: Egg): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if ((await countServers(tx, { eggId: egg.id })) > 0) throw displayError(eggMessages.eggHasServers);
      if (await eggHasChildren(tx, egg.id)) throw displayError(eggMessages.eggHasChildren);
      await deleteEgg(tx, egg.id);
    });
  }

  /**
   * Adds a variable at the end of the egg's list and gives every server of the egg its default value.
   * @throws HttpError 422 when the egg already has the env_variable
   */
  async createVariable(egg: Egg, input: EggVariableBody): Promise<EggVariable> {
    const now = this.deps.clock();
    const id = await this.deps.db.transaction().execute(async (tx) => {
      await assertEnvFree(tx, egg.id, input.env_variable, null);
      const variableId = await appendEggVariable(tx, egg.id, variableColumns(input), now);
      await addValueToServersOfEgg(tx, egg.id, variableId, input.default_value ?? '', now);
      return variableId;
    });
    return (await findEggVariable(this.deps.db, egg.id, id)) as EggVariable;
  }

  /** @throws HttpError 422 when another variable of the egg has the env_variable */
  async updateVariable(variable: EggVariable, input: EggVariableBody): Promise<EggVariable> {
    await this.deps.db.transaction().execute(async (tx) => {
      await assertEnvFree(tx, variable.eggId, input.env_variable, variable.id);
      await updateEggVariable(tx, variable.id, variableColumns(input), this.deps.clock());
    });
    return (await findEggVariable(this.deps.db, variable.eggId, variable.id)) as EggVariable;
  }

  /** Deletes the variable and the servers' values of it. */
  async deleteVariable(variable: EggVariable): Promise<void> {
    await this.deps.db.transaction().execute((tx) => deleteEggVariable(tx, variable.id));
  }
}

const variableColumns = (input: EggVariableBody): EggVariableColumns => ({
  name: input.name,
  description: input.description ?? '',
  env_variable: input.env_variable,
  default_value: input.default_value ?? '',
  user_viewable: input.user_viewable ?? false,
  user_editable: input.user_editable ?? false,
  rules: input.rules ?? '',
});

/** @throws HttpError 422 `unique` on env_variable when another variable of the egg has it */
async function assertEnvFree(db: Db, eggId: number, env: string, exceptId: number | null) {
  if (await envVariableTaken(db, eggId, env, exceptId)) throw fieldRuleFailed('env_variable', 'unique');
}

async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldRuleFailed('name', 'unique');
    throw error;
  }
}
