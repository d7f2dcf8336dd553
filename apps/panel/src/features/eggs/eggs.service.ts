import type { Db } from '@aerie/panel/db/database';
import { type Egg, findEggs, type Nest, nestOfEggUuid } from './eggs.repository';
import { importEgg } from './import-egg';
import type { EggDefinition } from './ptdl/egg-definition';

/** Eggs written through the Application API: the import into a nest, with the importer the CLI uses. */
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
}
