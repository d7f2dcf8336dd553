/**
 * The SFTP login a daemon asks the panel to decide (`POST /api/remote/sftp/auth`, reference/wings.md §8), shared by
 * the panel's remote route and the daemon's SFTP server. snake_case as on the wire.
 */

/** What the daemon sends for each password or public-key attempt (Wings' body; `ip` is the SFTP client's). */
export interface SftpAuthBody {
  /** Absent means `password`, as in Pterodactyl. */
  type?: 'password' | 'public_key' | null;
  /** `{panel username}.{server identifier}`: split at the last dot. */
  username: string;
  /** The password, or for `public_key` the key in authorized_keys form (`ssh-ed25519 AAAA…`). */
  password: string;
  /** The SFTP client's address: failed logins are counted per username and this address. */
  ip?: string | null;
  session_id?: string | null;
  client_version?: string | null;
}

/** 200: who logged in, to which server, with which permissions (the daemon checks them per operation). */
export interface SftpAuthAnswer {
  /** The user's uuid. */
  user: string;
  /** The server's full uuid (the username may have named its 8-character identifier). */
  server: string;
  /** Effective permissions: `*` for owners and root admins, the stored list for subusers. */
  permissions: string[];
  /**
   * md5(user id . server uuid): the jti the panel names in `POST /api/servers/{uuid}/ws/deny` to revoke this user's
   * access to this server. The daemon closes live sessions matching it (Aerie's addition; Wings ignores it).
   */
  jti: string;
}

/** The panel's texts for refused logins; the daemon tells the SFTP client nothing but "denied". */
export const sftpAuthMessages = {
  /** Unknown user, wrong password, unknown key, a server not on the calling node: one answer for all. */
  invalidCredentials: 'Authorization credentials were not correct, please try again.',
  noServer: 'No valid server identifier was included in the request.',
  noSftpPermission: 'You do not have permission to access SFTP for this server.',
  tooManyAttempts: (seconds: number) =>
    `Too many login attempts for this account, please try again in ${seconds} seconds.`,
} as const;

/**
 * The SFTP username: `<panel username>.<server identifier>`, split at the LAST dot (panel usernames may hold dots).
 * Null when there is no dot or either side is empty.
 */
export function splitSftpUsername(username: string): { user: string; server: string } | null {
  const dot = username.lastIndexOf('.');
  if (dot <= 0 || dot === username.length - 1) return null;
  return { user: username.slice(0, dot), server: username.slice(dot + 1) };
}
