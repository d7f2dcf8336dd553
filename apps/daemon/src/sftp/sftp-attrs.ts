import type { Stats } from 'node:fs';
import { modeString } from '@aerie/daemon/fs/file-mode';
import type { Attributes } from 'ssh2';

/** What an SFTP client is told about a file: mode with its type bits, ids, size, times in whole seconds. */
export function attrsOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SIX_MONTHS_MS = 182 * 24 * 3600 * 1000;

/**
 * The `ls -l` line clients such as OpenSSH's `ls -l` print as given. Owner and group are shown as `container`
 * (the game's user inside its sandbox), never the host's uid names.
 */
export function longnameOf(name: string, stats: Stats, now = Date.now()): string {
  const date = stats.mtime;
  const day = String(date.getUTCDate()).padStart(2, ' ');
  const recent = Math.abs(now - date.getTime()) < SIX_MONTHS_MS;
  const time = recent
    ? `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`
    : ` ${date.getUTCFullYear()}`;
  const size = String(stats.size).padStart(8, ' ');
  return `${modeString(stats.mode)} ${String(stats.nlink).padStart(3, ' ')} container container ${size} ${MONTHS[date.getUTCMonth()]} ${day} ${time} ${name}`;
}
