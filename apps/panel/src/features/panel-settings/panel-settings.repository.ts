import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';

/** SQL of the `settings` table: one row per stored key. */

/** Every stored setting, its value as stored (sealed ones sealed). */
export function listSettings(db: Db | Tx) {
  return db.selectFrom('settings').select(['key', 'value']).execute();
}

/** Replaces a setting's stored value, or removes it with `null`. */
export async function replaceSetting(tx: Db | Tx, key: string, storedValue: string | null): Promise<void> {
  await tx.deleteFrom('settings').where('key', '=', key).execute();
  if (storedValue !== null) await tx.insertInto('settings').values({ key, value: storedValue }).execute();
}
