import type { Db } from '@aerie/panel/db/database';
import { findUserById } from './users.repository';

// What the users feature offers other features to read about accounts, on top of its repository.

export {
  emailTakenByOther,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  findUserIdsByUuid,
  findUsers,
  normaliseLogin,
  usernameTaken,
} from './users.repository';

export async function userExists(db: Db, id: number): Promise<boolean> {
  return (await findUserById(db, id)) !== null;
}

/** The account's uuid (what a daemon's deny list names), or null when there is no such account. */
export async function findUserUuid(db: Db, id: number): Promise<string | null> {
  return (await findUserById(db, id))?.uuid ?? null;
}
