/** What the denylist needs from a token's claims. */
export interface DenylistClaims {
  server_uuid: string;
  jti?: string | undefined;
  user_uuid?: string | undefined;
  /** Seconds since the epoch. */
  iat: number;
}

/** Deny times (ms) of one server's jtis and users. */
interface ServerDenials {
  jtis: Map<string, number>;
  users: Map<string, number>;
}

/**
 * Tokens the daemon no longer honours (Wings' `/ws/deny`, extended): the panel denies a jti or a user on a server,
 * or a user on every server of the node, and every token of theirs issued at or before that moment is refused
 * from then on: websocket tokens (open sockets included) and signed file URLs alike. Tokens issued before the
 * daemon started (in an earlier second) are refused too, so a restart (which forgets the denials) forces fresh
 * tokens.
 *
 * Memory: one entry per denied jti or user (a later deny of the same one overwrites it), so what is kept grows
 * with the panel's users and servers, never with how often it calls.
 */
export class JwtDenylist {
  readonly bootTime: Date;
  readonly #now: () => number;
  readonly #servers = new Map<string, ServerDenials>();
  /** user uuid → when they were denied on every server of this node (ms). */
  readonly #usersEverywhere = new Map<string, number>();
  /** Told after every deny, with its server (undefined: every server): live SFTP sessions are closed there. */
  readonly #listeners = new Set<(serverUuid: string | undefined) => void>();

  constructor(options: { bootTime?: Date; now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    this.bootTime = options.bootTime ?? new Date(this.#now());
  }

  /** Refuses from now on every token of these jtis on this server issued at or before now. */
  deny(serverUuid: string, jtis: readonly string[]): void {
    const now = this.#now();
    for (const jti of jtis) this.#denials(serverUuid).jtis.set(jti, now);
    this.#notify(serverUuid);
  }

  /** Refuses from now on every token of these users on this server issued at or before now. */
  denyUsers(serverUuid: string, userUuids: readonly string[]): void {
    const now = this.#now();
    for (const user of userUuids) this.#denials(serverUuid).users.set(user, now);
    this.#notify(serverUuid);
  }

  /** Refuses from now on every token of these users, on any server, issued at or before now. */
  denyUsersEverywhere(userUuids: readonly string[]): void {
    const now = this.#now();
    for (const user of userUuids) this.#usersEverywhere.set(user, now);
    this.#notify(undefined);
  }

  /**
   * True when the token was issued in a second before the daemon started, or at or before a deny of its jti or
   * user. iat has whole seconds: a token from the very second of a deny counts as before it (refused), one from
   * the second the daemon started in as after (a URL the panel signs right after a restart works; a deny and a
   * restart within one second do not happen: the supervisor waits before restarting).
   */
  isDenied(claims: DenylistClaims): boolean {
    if (claims.iat < Math.floor(this.bootTime.getTime() / 1000)) return true;
    const issuedAtMs = claims.iat * 1000;
    const server = this.#servers.get(claims.server_uuid);
    const deniedAt = [
      claims.jti === undefined ? undefined : server?.jtis.get(claims.jti),
      claims.user_uuid === undefined ? undefined : server?.users.get(claims.user_uuid),
      claims.user_uuid === undefined ? undefined : this.#usersEverywhere.get(claims.user_uuid),
    ];
    return deniedAt.some((at) => at !== undefined && issuedAtMs <= at);
  }

  /**
   * True when the jti or the user was denied on this server (or the user everywhere) at or after `sinceMs`: an
   * access granted at `sinceMs` (an SFTP login, in milliseconds, so a login right after a password change is not
   * caught by a deny of the same second) is no longer backed by the panel.
   */
  deniedSince(serverUuid: string, who: { jti?: string; userUuid?: string }, sinceMs: number): boolean {
    const server = this.#servers.get(serverUuid);
    const deniedAt = [
      who.jti === undefined ? undefined : server?.jtis.get(who.jti),
      who.userUuid === undefined ? undefined : server?.users.get(who.userUuid),
      who.userUuid === undefined ? undefined : this.#usersEverywhere.get(who.userUuid),
    ];
    return deniedAt.some((at) => at !== undefined && at >= sinceMs);
  }

  /** Calls `listener` after each deny with the server it named (undefined: every server); returns the undo. */
  onDeny(listener: (serverUuid: string | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Drops what was kept for a server removed from this daemon. */
  forgetServer(serverUuid: string): void {
    this.#servers.delete(serverUuid);
  }

  #notify(serverUuid: string | undefined): void {
    for (const listener of this.#listeners) listener(serverUuid);
  }

  #denials(serverUuid: string): ServerDenials {
    let denials = this.#servers.get(serverUuid);
    if (!denials) {
      denials = { jtis: new Map(), users: new Map() };
      this.#servers.set(serverUuid, denials);
    }
    return denials;
  }
}
