import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import { findLocationIdByShort, insertLocation } from './locations.repository';

/** The location nodes go to when none is named (the local node's): `local`, created on first use. */
export async function ensureLocalLocation(db: Db, now = new Date()): Promise<number> {
  const found = await findLocationIdByShort(db, 'local');
  if (found !== undefined) return found;
  try {
    await insertLocation(db, { short: 'local', long: 'This machine' }, now);
  } catch (error) {
    // Another process made it first.
    if (!isUniqueViolation(error)) throw error;
  }
  return (await findLocationIdByShort(db, 'local')) ?? 0;
}
