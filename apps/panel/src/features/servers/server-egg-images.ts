import type { Db } from '@aerie/panel/db/database';
import { findEggForServer } from '@aerie/panel/features/eggs/egg-lookups';

/**
 * The Docker images the server's egg offers (label → image), read from the egg itself. Both the Startup page's
 * list and the image switch read them; an unreadable value offers none.
 */
export async function eggDockerImages(db: Db, eggId: number): Promise<Record<string, string>> {
  const images = (await findEggForServer(db, eggId))?.dockerImages ?? {};
  return Object.fromEntries(
    Object.entries(images).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
