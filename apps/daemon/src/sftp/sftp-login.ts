import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { PanelRequestError, type SftpAuthApi } from '@aerie/daemon/panel-client/panel-client';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import type { SftpAuthAnswer } from '@aerie/shared/sftp/sftp-wire';
import ssh2, { type AuthContext } from 'ssh2';
import { parseSftpUsername } from './sftp-username';

/** What a login was granted: checked again at every revocation, never refreshed from a cache. */
export interface SftpAuthority {
  serverUuid: string;
  userUuid: string;
  /** md5(user id . server uuid), the jti the panel names when it revokes this user's access to this server. */
  jti: string;
  permissions: readonly string[];
  /** When the panel was asked (ms): a deny at or after this moment means the answer no longer holds. */
  grantedAt: number;
  /** The SFTP username, for the log. */
  username: string;
}

/** The outcome of one authentication request. */
export type LoginVerdict =
  | { accept: false }
  /** A public key the panel knows, offered without a signature yet: the client may now sign with it. */
  | { accept: true; authority: undefined }
  | { accept: true; authority: SftpAuthority };

export interface SftpLoginOptions {
  panel: SftpAuthApi;
  manager: Pick<ServerManager, 'get' | 'list'>;
  denylist: JwtDenylist;
  /** Whether a server can take one more session (its cap). */
  hasRoom: (serverUuid: string) => boolean;
  warn: (message: string) => void;
  now?: () => number;
}

const REFUSED: LoginVerdict = { accept: false };

/**
 * Decides SFTP logins (reference/wings.md §8): the username's form is checked here, and a username naming no
 * server of this node is refused without asking the panel; then the panel decides the password or key (and
 * counts failures per username and address). A public key's signature is verified here: the panel only says
 * whether the key is one of the user's. Unknown user, wrong password and refused state look the same to the
 * client.
 */
export class SftpLogin {
  readonly #options: SftpLoginOptions;
  readonly #now: () => number;

  constructor(options: SftpLoginOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async decide(ctx: AuthContext, client: { ip: string; version: string }): Promise<LoginVerdict> {
    const parsed = parseSftpUsername(ctx.username);
    if (!parsed) return REFUSED;
    const local = this.#options.manager.list().find((server) => server.uuid.startsWith(parsed.serverId));
    if (!local) return REFUSED;
    let body: { type: 'password' | 'public_key'; password: string };
    if (ctx.method === 'password') {
      body = { type: 'password', password: ctx.password };
    } else if (ctx.method === 'publickey') {
      const key = ssh2.utils.parseKey(ctx.key.data);
      if (key instanceof Error) return REFUSED;
      if (ctx.signature !== undefined) {
        // The client proves it holds the private key; the panel is asked only about the public half.
        if (!ctx.blob || key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return REFUSED;
      }
      body = { type: 'public_key', password: `${key.type} ${ctx.key.data.toString('base64')}` };
    } else {
      return REFUSED;
    }
    const grantedAt = this.#now();
    let answer: SftpAuthAnswer;
    try {
      answer = await this.#options.panel.authenticateSftp({
        ...body,
        username: ctx.username,
        ip: client.ip,
        client_version: client.version,
      });
    } catch (error) {
      if (!(error instanceof PanelRequestError) || error.status === undefined || error.status >= 500) {
        this.#options.warn(
          `SFTP login of ${ctx.username} refused: the panel could not decide it (${(error as Error).message})`,
        );
      }
      return REFUSED;
    }
    if (ctx.method === 'publickey' && ctx.signature === undefined)
      return { accept: true, authority: undefined };
    const authority = this.#authorityFrom(answer, grantedAt, ctx.username);
    if (!authority || authority.serverUuid !== local.uuid) return REFUSED;
    return { accept: true, authority };
  }

  /** The panel's answer, if it still holds on this node: the server is here, usable, and nothing was revoked since. */
  #authorityFrom(answer: SftpAuthAnswer, grantedAt: number, username: string): SftpAuthority | undefined {
    const { manager, denylist, hasRoom } = this.#options;
    if (typeof answer?.server !== 'string' || typeof answer.user !== 'string') return undefined;
    const server = manager.get(answer.server);
    if (!server || server.isSuspended || server.isInstalling || !hasRoom(server.uuid)) return undefined;
    const permissions = Array.isArray(answer.permissions)
      ? answer.permissions.filter((permission): permission is string => typeof permission === 'string')
      : [];
    const jti = typeof answer.jti === 'string' ? answer.jti : '';
    const who = { userUuid: answer.user, ...(jti ? { jti } : {}) };
    if (denylist.deniedSince(server.uuid, who, grantedAt)) return undefined;
    return { serverUuid: server.uuid, userUuid: answer.user, jti, permissions, grantedAt, username };
  }
}
