import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { displayError, notFound } from '@aerie/panel/http/errors';
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
  findImportTarget,
  findNest,
  type Nest,
  nestOfEggUuid,
  parseJsonText,
  updateEggColumns,
} from './eggs.repository';
import { importEggWithin } from './import-egg';
import { deleteNest, insertNest, updateNest } from './nests.repository';
import type { EggDefinition } from './ptdl/egg-definition';

/**
 * Nests, eggs and egg variables written through the Application API: the import into a nest (with the importer
 * the CLI uses), nest create/update/delete, egg edits and deletion, and the egg's variables. Each change runs in
 * one transaction with its audit entry, reading the object as it was and as it became in that transaction.
 */
export class EggsService {
  constructor(private readonly deps: { db: Db; clock: () => Date }) {}

  /**
   * Imports the egg into `nest`, or updates the nest's egg of the same uuid or name in place (`created` false).
   * An export whose uuid belongs to an egg of another nest becomes a new egg with a uuid of its own (as
   * upstream's import always does), so importing never moves an egg, and its servers, out of its nest.
   */
  importInto(
    nest: Nest,
    definition: EggDefinition,
    audit: Audit<Egg>,
  ): Promise<{ egg: Egg; created: boolean }> {
    return this.deps.db.transaction().execute(async (tx) => {
      let egg = definition;
      if (egg.uuid !== null) {
        const holder = await nestOfEggUuid(tx, egg.uuid);
        if (holder !== null && holder !== nest.id) egg = { ...egg, uuid: null };
      }
      // The egg the import will update, looked up as the importer does, to record what it was.
      const target = await findImportTarget(tx, { uuid: egg.uuid, nestId: nest.id, name: egg.name });
      const before = target ? await eggIn(tx, target.id) : null;
      const imported = await importEggWithin(tx, egg, { nestName: nest.name, now: this.deps.clock() });
      const after = (await eggIn(tx, imported.id)) as Egg;
      await audit(tx, { subjectId: imported.id, before, after });
      return { egg: after, created: imported.created };
    });
  }

  /** @throws HttpError 422 when the name is taken (nest names are unique here) */
  createNest(input: NestBody, author: string, audit: Audit<Nest>): Promise<Nest> {
    return uniqueName(() =>
      this.deps.db.transaction().execute(async (tx) => {
        const fields = { author, name: input.name, description: input.description ?? null };
        const id = await insertNest(tx, fields, this.deps.clock());
        const after = (await findNest(tx, id)) as Nest;
        await audit(tx, { subjectId: id, after });
        return after;
      }),
    );
  }

  /** @throws HttpError 404 when the nest is gone, 422 when another nest has the name */
  updateNest(nest: Nest, input: NestBody, audit: Audit<Nest>): Promise<Nest> {
    return uniqueName(() =>
      this.deps.db.transaction().execute(async (tx) => {
        const before = await findNest(tx, nest.id);
        if (!before) throw notFound();
        const fields = { name: input.name, description: input.description ?? null };
        await updateNest(tx, nest.id, fields, this.deps.clock());
        const after = (await findNest(tx, nest.id)) as Nest;
        await audit(tx, { subjectId: nest.id, before, after });
        return after;
      }),
    );
  }

  /**
   * Deletes the nest with its eggs and their variables, unless a server uses one of them (NestDeletionService).
   * @throws HttpError 404 when the nest is gone, 400 DisplayException while the nest has servers
   */
  async deleteNest(nest: Nest, audit: Audit<Nest>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findNest(tx, nest.id);
      if (!before) throw notFound();
      if ((await countServers(tx, { nestId: nest.id })) > 0) throw displayError(eggMessages.nestHasServers);
      await deleteNest(tx, nest.id);
      await audit(tx, { subjectId: nest.id, before });
    });
  }

  /**
   * Changes the fields sent; `config_startup` replaces the done entries of the start-up configuration.
   * @throws HttpError 404 when the egg is gone
   */
  updateEgg(egg: Egg, input: EggUpdateBody, audit: Audit<Egg>): Promise<Egg> {
    return this.deps.db.transaction().execute(async (tx) => {
      const before = await eggIn(tx, egg.id);
      if (!before) throw notFound();
      await updateEggColumns(tx, egg.id, this.eggColumns(before, input));
      const after = (await eggIn(tx, egg.id)) as Egg;
      await audit(tx, { subjectId: egg.id, before, after });
      return after;
    });
  }

  /** The columns an edit writes: the fields sent; `config_startup` replaces the done entries of `egg`'s. */
  private eggColumns(egg: Egg, input: EggUpdateBody): Record<string, unknown> {
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
    return set;
  }

  /**
   * Deletes the egg and its variables unless servers use it or other eggs extend it (EggDeletionService).
   * @throws HttpError 404 when the egg is gone, 400 DisplayException
   */
  async deleteEgg(egg: Egg, audit: Audit<Egg>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await eggIn(tx, egg.id);
      if (!before) throw notFound();
      if ((await countServers(tx, { eggId: egg.id })) > 0) throw displayError(eggMessages.eggHasServers);
      if (await eggHasChildren(tx, egg.id)) throw displayError(eggMessages.eggHasChildren);
      await deleteEgg(tx, egg.id);
      await audit(tx, { subjectId: egg.id, before });
    });
  }

  /**
   * Adds a variable at the end of the egg's list and gives every server of the egg its default value.
   * @throws HttpError 422 when the egg already has the env_variable
   */
  createVariable(egg: Egg, input: EggVariableBody, audit: Audit<EggVariable>): Promise<EggVariable> {
    const now = this.deps.clock();
    return this.deps.db.transaction().execute(async (tx) => {
      await assertEnvFree(tx, egg.id, input.env_variable, null);
      const id = await appendEggVariable(tx, egg.id, variableColumns(input), now);
      await addValueToServersOfEgg(tx, egg.id, id, input.default_value ?? '', now);
      const after = (await findEggVariable(tx, egg.id, id)) as EggVariable;
      await audit(tx, { subjectId: id, after });
      return after;
    });
  }

  /** @throws HttpError 404 when the variable is gone, 422 when another variable of the egg has the env_variable */
  updateVariable(
    variable: EggVariable,
    input: EggVariableBody,
    audit: Audit<EggVariable>,
  ): Promise<EggVariable> {
    return this.deps.db.transaction().execute(async (tx) => {
      const before = await findEggVariable(tx, variable.eggId, variable.id);
      if (!before) throw notFound();
      await assertEnvFree(tx, variable.eggId, input.env_variable, variable.id);
      await updateEggVariable(tx, variable.id, variableColumns(input), this.deps.clock());
      const after = (await findEggVariable(tx, variable.eggId, variable.id)) as EggVariable;
      await audit(tx, { subjectId: variable.id, before, after });
      return after;
    });
  }

  /**
   * Deletes the variable and the servers' values of it.
   * @throws HttpError 404 when the variable is gone
   */
  async deleteVariable(variable: EggVariable, audit: Audit<EggVariable>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findEggVariable(tx, variable.eggId, variable.id);
      if (!before) throw notFound();
      await deleteEggVariable(tx, variable.id);
      await audit(tx, { subjectId: variable.id, before });
    });
  }
}

/** The egg as the transaction sees it, or null. */
async function eggIn(tx: Tx, id: number): Promise<Egg | null> {
  return (await findEggs(tx, [id]))[0] ?? null;
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
