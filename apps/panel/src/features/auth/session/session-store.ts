import { randomToken, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { readDate } from '@aerie/panel/db/dialect';
import { reusableQuery } from '@aerie/panel/db/reusable-query';
import { toUser, type User } from '@aerie/panel/features/users/user';
import { parseSessionData, type SessionData } from './session-data';

export interface StoredSession {
  /** SHA-256 of the cookie value (the primary key). */
  id: string;
  userId: number | null;
  data: SessionData;
  expiresAt: Date;
  user: User | null;
}

/** Database access for browser sessions. The cookie holds a random token; the table holds only its hash. */
export class SessionStore {
  /** Every request with a session cookie runs this look-up: it is compiled once. */
  readonly #findById;

  constructor(private readonly db: Db) {
    this.#findById = reusableQuery(db, (id) =>
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
  }

  async create(input: {
    userId: number | null;
    data: SessionData;
    ip: string | null;
    userAgent: string | null;
    now: Date;
    expiresAt: Date;
  }): Promise<{ token: string; id: string }> {
    const token = randomToken(32);
    const id = sha256(token);
    await this.db
      .insertInto('sessions')
      .values({
        id,
        user_id: input.userId,
        data: JSON.stringify(input.data),
        ip_address: input.ip?.slice(0, 45) ?? null,
        user_agent: input.userAgent?.slice(0, 500) ?? null,
        expires_at: input.expiresAt,
        created_at: input.now,
      })
      .execute();
    return { token, id };
  }

  /** The session behind a cookie token with its user, in one query; null when unknown. */
  async find(token: string): Promise<StoredSession | null> {
    const [row] = await this.#findById(sha256(token));
    if (!row) return null;
    const { session_id, session_user_id, session_data, session_expires_at, ...userColumns } = row;
    return {
      id: session_id,
      userId: session_user_id,
      data: parseSessionData(session_data),
      expiresAt: readDate(session_expires_at),
      // A left join yields nulls when the session has no user.
      user: userColumns.id === null ? null : toUser(userColumns as Parameters<typeof toUser>[0]),
    };
  }

  async extend(id: string, expiresAt: Date): Promise<void> {
    await this.db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async saveData(id: string, data: SessionData): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Signs a user out everywhere (password reset), optionally keeping one session. */
  async deleteForUser(userId: number, exceptId?: string): Promise<void> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}
