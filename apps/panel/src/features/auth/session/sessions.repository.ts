import type { Db } from '@aerie/panel/db/database';
import { reusableQuery } from '@aerie/panel/db/reusable-query';

/** SQL for browser sessions (table `sessions`, keyed by the SHA-256 of the cookie token). */

/**
 * The look-up every request with a session cookie runs: the session by id with its user's columns (left join),
 * compiled once (see reusableQuery).
 */
const sessionLookup = reusableQuery((db: Db, id: string) =>
  db
    .selectFrom('sessions')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.user_id as session_user_id',
      'sessions.data as session_data',
      'sessions.expires_at as session_expires_at',
    ])
    .where('sessions.id', '=', id),
);

export function compileSessionLookup(db: Db) {
  return (id: string) => sessionLookup(db, id);
}

export async function insertSession(
  db: Db,
  session: {
    id: string;
    userId: number | null;
    dataJson: string;
    ip: string | null;
    userAgent: string | null;
    expiresAt: Date;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      data: session.dataJson,
      ip_address: session.ip,
      user_agent: session.userAgent,
      expires_at: session.expiresAt,
      created_at: session.now,
    })
    .execute();
}

export async function updateSessionExpiry(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function updateSessionData(db: Db, id: string, dataJson: string): Promise<void> {
  await db.updateTable('sessions').set({ data: dataJson }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Every session of a user, but `exceptId` when given. */
export async function deleteUserSessions(db: Db, userId: number, exceptId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  await query.execute();
}

export async function deleteSessionsExpiredBy(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
