import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import type { SftpAuthority } from './sftp-login';

/** A logged-in SFTP connection as the registry sees it. */
export interface LiveSftpSession {
  readonly authority: SftpAuthority;
  /** Ends the connection at once (the client is told, its open files are settled). */
  close(reason: string): void;
}

interface ServerWatch {
  sessions: Set<LiveSftpSession>;
  unsubscribe: () => void;
}

/**
 * The live SFTP sessions of this daemon by server, so no session outlives its authority (CVE-2025-68954,
 * GHSA-hr7j-63v7-vj7g: Wings kept them after a subuser's removal or a password change). A session is closed:
 * - when the panel revokes its user's access (`POST /api/servers/{uuid}/ws/deny` by jti or user, `POST /api/deny`
 *   for every server: password change or reset, account deletion, subuser removal or narrowing), at the moment the
 *   daemon records the deny, before the panel hears 204;
 * - when its server is suspended (a sync bringing `suspended`), deleted, or starts reinstalling.
 * A login the panel granted before such a deny but that completes after it is refused (SftpLogin checks the
 * denylist with the time it asked the panel), so the two cannot cross.
 */
export class SftpSessionRegistry {
  readonly #servers = new Map<string, ServerWatch>();
  readonly #manager: { get(uuid: string): ManagedServer | undefined };
  readonly #denylist: JwtDenylist;
  readonly #maxPerServer: number;
  readonly #stopDenials: () => void;

  constructor(options: {
    manager: { get(uuid: string): ManagedServer | undefined };
    denylist: JwtDenylist;
    maxSessionsPerServer: number;
  }) {
    this.#manager = options.manager;
    this.#denylist = options.denylist;
    this.#maxPerServer = options.maxSessionsPerServer;
    this.#stopDenials = this.#denylist.onDeny((server) => this.#revalidate(server));
  }

  hasRoom(serverUuid: string): boolean {
    return (this.#servers.get(serverUuid)?.sessions.size ?? 0) < this.#maxPerServer;
  }

  /** Sessions of a server (a copy). */
  sessionsOf(serverUuid: string): LiveSftpSession[] {
    return [...(this.#servers.get(serverUuid)?.sessions ?? [])];
  }

  get count(): number {
    let total = 0;
    for (const watch of this.#servers.values()) total += watch.sessions.size;
    return total;
  }

  /**
   * Adds a session that has just logged in; returns its removal (call it when the connection closes). A session
   * whose authority no longer holds (revoked in between, server gone, suspended, full) is refused: closed here.
   */
  add(session: LiveSftpSession): () => void {
    const { serverUuid, userUuid, jti, grantedAt } = session.authority;
    const server = this.#manager.get(serverUuid);
    const revoked = this.#denylist.deniedSince(serverUuid, { userUuid, ...(jti ? { jti } : {}) }, grantedAt);
    if (!server || server.isSuspended || server.isInstalling || revoked || !this.hasRoom(serverUuid)) {
      session.close(revoked ? 'access revoked' : 'the server cannot take this session');
      return () => {};
    }
    let watch = this.#servers.get(serverUuid);
    if (!watch) {
      watch = { sessions: new Set(), unsubscribe: this.#watchServer(server) };
      this.#servers.set(serverUuid, watch);
    }
    watch.sessions.add(session);
    return () => this.#remove(serverUuid, session);
  }

  /** Closes every session of one server. */
  closeServer(serverUuid: string, reason: string): void {
    for (const session of this.sessionsOf(serverUuid)) session.close(reason);
  }

  /** Closes every session (the daemon is stopping) and stops listening for denials. */
  closeAll(reason: string): void {
    for (const serverUuid of [...this.#servers.keys()]) this.closeServer(serverUuid, reason);
    this.#stopDenials();
  }

  #remove(serverUuid: string, session: LiveSftpSession): void {
    const watch = this.#servers.get(serverUuid);
    if (!watch?.sessions.delete(session)) return;
    if (watch.sessions.size === 0) {
      watch.unsubscribe();
      this.#servers.delete(serverUuid);
    }
  }

  /** A deny was recorded for `server` (undefined: every server): sessions it concerns are closed now. */
  #revalidate(server: string | undefined): void {
    const servers = server === undefined ? [...this.#servers.keys()] : [server];
    for (const serverUuid of servers) {
      for (const session of this.sessionsOf(serverUuid)) {
        const { userUuid, jti, grantedAt } = session.authority;
        if (this.#denylist.deniedSince(serverUuid, { userUuid, ...(jti ? { jti } : {}) }, grantedAt)) {
          session.close('access revoked');
        }
      }
    }
  }

  #watchServer(server: ManagedServer): () => void {
    const uuid = server.uuid;
    const onSuspended = () => this.closeServer(uuid, 'server suspended');
    const onDeleted = () => this.closeServer(uuid, 'server deleted');
    const onReinstall = () => this.closeServer(uuid, 'server reinstalling');
    const stopSuspend = server.onSuspend(onSuspended);
    server.on('deleted', onDeleted);
    server.on('install started', onReinstall);
    return () => {
      stopSuspend();
      server.off('deleted', onDeleted);
      server.off('install started', onReinstall);
    };
  }
}
