import type { Db } from '@aerie/panel/db/database';
import { findEggs } from './eggs.repository';

// What the eggs feature offers other features to read (a server's egg, its variables), on top of its repository.

export type { EggVariable } from './eggs.repository';
export { findEggs, findNests, listEggVariables } from './eggs.repository';

/** What a new or changed server takes from its egg; null when there is no egg of that id. */
export async function findEggForServer(db: Db, id: number) {
  const [egg] = await findEggs(db, [id]);
  return egg
    ? { id: egg.id, nestId: egg.nestId, startup: egg.startup, dockerImages: egg.dockerImages }
    : null;
}
