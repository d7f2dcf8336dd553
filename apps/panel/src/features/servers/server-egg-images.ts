import type { Db } from '@aerie/panel/db/database';

/**
 * The Docker images the server's egg offers (label → image), read from the egg itself. Both the Startup page's
 * list and the image switch read them; an unreadable value offers none.
 */
export async function eggDockerImages(db: Db, eggId: number): Promise<Record<string, string>> {
  const row = await db.selectFrom('eggs').select('docker_images').where('id', '=', eggId).executeTakeFirst();
  try {
    const images: unknown = JSON.parse(row?.docker_images ?? '{}');
    if (typeof images !== 'object' || images === null || Array.isArray(images)) return {};
    return Object.fromEntries(
      Object.entries(images).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}
