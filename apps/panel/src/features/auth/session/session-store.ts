import { randomToken, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { readDate } from '@aerie/panel/db/dialect';
import { toUser, type User } from '@aerie/panel/features/users/user';
import { parseSessionData, type SessionData } from './session-data';
import {
  compileSessionLookup,
  deleteSession,
  deleteSessionsExpiredBy,
  deleteUserSessions,
  insertSession,
  updateSessionData,
  updateSessionExpiry,
} from './sessions.repository';

export interface StoredSession {
  /** SHA-256 of the cookie value (the primary key). */
  id: string;
  userId: number | null;
  data: SessionData;
  expiresAt: Date;
  user: User | null;
}

/** Browser sessions (SQL in sessions.repository.ts). The cookie holds a random token; the table only its hash. */
export class SessionStore {
  /** Every request with a session cookie runs this look-up: it is compiled once. */
  readonly #findById;

  constructor(private readonly db: Db) {
    this.#findById = compileSessionLookup(db);
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
    await insertSession(this.db, {
      id,
      userId: input.userId,
      dataJson: JSON.stringify(input.data),
      ip: input.ip?.slice(0, 45) ?? null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      expiresAt: input.expiresAt,
      now: input.now,
    });
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
    await updateSessionExpiry(this.db, id, expiresAt);
  }

  async saveData(id: string, data: SessionData): Promise<void> {
    await updateSessionData(this.db, id, JSON.stringify(data));
  }

  async delete(id: string): Promise<void> {
    await deleteSession(this.db, id);
  }

  /** Signs a user out everywhere (password reset), optionally keeping one session. */
  async deleteForUser(userId: number, exceptId?: string): Promise<void> {
    await deleteUserSessions(this.db, userId, exceptId);
  }

  async deleteExpired(now: Date): Promise<void> {
    await deleteSessionsExpiredBy(this.db, now);
  }
}
