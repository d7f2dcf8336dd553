import { splitSftpUsername } from '@aerie/shared/sftp/sftp-wire';

/** A panel username as the panel allows them (letters, digits, `.`, `_`, `-`), at most 191 characters. */
const PANEL_USERNAME = /^[a-z0-9][a-z0-9._-]{0,190}$/i;
/** A server's short identifier: the first 8 characters of its uuid. */
const SERVER_IDENTIFIER = /^[0-9a-z]{8}$/i;

/**
 * `{panel username}.{server identifier}` (reference/wings.md §8), split at the LAST dot. Anything else is refused
 * here, before the panel is asked: a scanner trying `root` or `admin` costs the panel nothing.
 */
export function parseSftpUsername(username: string): { user: string; serverId: string } | null {
  if (username.length > 200) return null;
  const parts = splitSftpUsername(username);
  if (!parts || !PANEL_USERNAME.test(parts.user) || !SERVER_IDENTIFIER.test(parts.server)) return null;
  return { user: parts.user, serverId: parts.server.toLowerCase() };
}
