import { isDiskFull } from '@aerie/panel/db/disk-full';
import type { User } from '@aerie/panel/features/users/user';
import { logDiskFull } from '@aerie/panel/http/error-handler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionData } from './session-data';
import type { SessionStore } from './session-store';

export const SESSION_COOKIE = 'aerie_session';

/** The session attached to a request. */
export interface ActiveSession {
  id: string;
  data: SessionData;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: ActiveSession | null;
    /** The signed-in user, or null for guests. */
    user: User | null;
  }
}

const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * A write the request can do without (sliding the expiry, removing an expired row): on a full disk it is left
 * undone with a warning, so a signed-in user can still read while no write fits. False when it was skipped.
 */
async function unlessDiskFull(
  request: FastifyRequest,
  what: string,
  write: () => Promise<void>,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    logDiskFull(request, error, what);
    return false;
  }
}

/**
 * Browser sessions kept in the database. The lifetime slides: each use pushes the expiry back, but the row
 * (and the cookie) is rewritten at most once per `touchAfterMs`, so reads do not cost a write each.
 */
export class Sessions {
  #lastPrune = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly options: { ttlMs: number; clock: () => Date; touchAfterMs?: number },
  ) {}

  /** Loads the session named by the cookie (onRequest). Unknown or expired cookies are cleared. */
  async load(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    request.session = null;
    request.user = null;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const found = await this.store.find(token);
    const now = this.options.clock();
    if (!found || found.expiresAt <= now) {
      if (found) await unlessDiskFull(request, 'expired session kept', () => this.store.delete(found.id));
      this.clearCookie(reply);
      return;
    }
    const { ttlMs, touchAfterMs = 60_000 } = this.options;
    if (found.expiresAt.getTime() - now.getTime() < ttlMs - touchAfterMs) {
      const extend = () => this.store.extend(found.id, this.expiryFrom(now));
      if (await unlessDiskFull(request, 'session not extended', extend))
        this.setCookie(request, reply, token);
    }
    request.session = { id: found.id, data: found.data };
    request.user = found.user;
  }

  /** Signs `user` in on a NEW session id (the old one is deleted: no session fixation). */
  async signIn(request: FastifyRequest, reply: FastifyReply, user: User): Promise<void> {
    if (request.session) await this.store.delete(request.session.id);
    await this.start(request, reply, user.id, {});
    request.user = user;
  }

  /** Stores `data` on the request's session, starting a guest session when there is none. */
  async saveData(request: FastifyRequest, reply: FastifyReply, data: SessionData): Promise<void> {
    if (request.session) {
      await this.store.saveData(request.session.id, data);
      request.session.data = data;
      return;
    }
    await this.start(request, reply, null, data);
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.session) await this.store.delete(request.session.id);
    this.clearCookie(reply);
    request.session = null;
    request.user = null;
  }

  /** Ends every session of a user, e.g. after a password reset. */
  signOutEverywhere(userId: number): Promise<void> {
    return this.store.deleteForUser(userId);
  }

  private async start(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number | null,
    data: SessionData,
  ) {
    const now = this.options.clock();
    await this.pruneNowAndThen(now);
    const { token, id } = await this.store.create({
      userId,
      data,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      now,
      expiresAt: this.expiryFrom(now),
    });
    this.setCookie(request, reply, token);
    request.session = { id, data };
  }

  private expiryFrom(now: Date) {
    return new Date(now.getTime() + this.options.ttlMs);
  }

  private async pruneNowAndThen(now: Date) {
    if (now.getTime() - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now.getTime();
    await this.store.deleteExpired(now);
  }

  private setCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      // request.protocol honours X-Forwarded-Proto only from proxies listed in TRUST_PROXY.
      secure: request.protocol === 'https',
      maxAge: Math.floor(this.options.ttlMs / 1000),
    });
  }

  private clearCookie(reply: FastifyReply) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
