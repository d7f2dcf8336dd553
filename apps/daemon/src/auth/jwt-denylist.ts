/** What the denylist needs from a token's claims. */
export interface DenylistClaims {
  server_uuid: string;
  jti?: string | undefined;
  /** Seconds since the epoch. */
  iat: number;
}

/**
 * Tokens the daemon no longer honours (Wings' `/ws/deny`): the panel denies a user's jti on a server when their
 * permissions change, and every token with that jti issued before that moment is refused from then on, open
 * sockets included. Tokens issued before the daemon started are refused too, so a restart forces fresh tokens.
 */
export class JwtDenylist {
  readonly bootTime: Date;
  readonly #now: () => number;
  /** server uuid → jti → when it was denied (ms). */
  readonly #denied = new Map<string, Map<string, number>>();

  constructor(options: { bootTime?: Date; now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    this.bootTime = options.bootTime ?? new Date(this.#now());
  }

  /** Refuses from now on every token of these jtis on this server issued before now. */
  deny(serverUuid: string, jtis: readonly string[]): void {
    let denied = this.#denied.get(serverUuid);
    if (!denied) {
      denied = new Map();
      this.#denied.set(serverUuid, denied);
    }
    const now = this.#now();
    for (const jti of jtis) denied.set(jti, now);
  }

  /** True when the token was issued before the daemon started or before its jti was denied on its server. */
  isDenied(claims: DenylistClaims): boolean {
    // iat has whole seconds: a token from the very second of a deny (or of the boot) counts as before it.
    const issuedAtMs = claims.iat * 1000;
    if (issuedAtMs < this.bootTime.getTime()) return true;
    if (claims.jti === undefined) return false;
    const deniedAt = this.#denied.get(claims.server_uuid)?.get(claims.jti);
    return deniedAt !== undefined && issuedAtMs < deniedAt;
  }

  /** Drops what was kept for a server removed from this daemon. */
  forgetServer(serverUuid: string): void {
    this.#denied.delete(serverUuid);
  }
}
