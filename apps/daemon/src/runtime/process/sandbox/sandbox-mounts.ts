import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Where a game server sees its own files (as in Wings' containers) and where an install script finds them. */
export const SANDBOX_HOME = '/home/container';
export const SANDBOX_INSTALL_MOUNT = '/mnt/server';
export const SANDBOX_SCRIPT_MOUNT = '/mnt/install';

/** The system directories a game may read: programs, libraries, and /etc for DNS, certificates and time zones. */
const SYSTEM_DIRECTORIES = ['/usr', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** How one host path appears in the sandbox: a read-only bind, or a symlink (merged /usr keeps /bin → usr/bin). */
export type SystemMount =
  | { kind: 'ro-bind'; path: string }
  | { kind: 'symlink'; path: string; target: string };

/**
 * The read-only view of the host a sandbox gets: the system directories that exist here. Nothing else of the host
 * is visible: not DATA_DIR, not /root, not /home, not the daemon, not /proc of other processes.
 */
export function systemMounts(): readonly SystemMount[] {
  // The host's layout does not change under a running daemon: looked at once, not at every start.
  cachedMounts ??= readSystemMounts();
  return cachedMounts;
}

let cachedMounts: readonly SystemMount[] | undefined;

function readSystemMounts(): SystemMount[] {
  const mounts: SystemMount[] = [];
  for (const directory of SYSTEM_DIRECTORIES) {
    const stats = lstatOrUndefined(directory);
    if (stats?.isSymbolicLink())
      mounts.push({ kind: 'symlink', path: directory, target: readlinkSync(directory) });
    else if (stats?.isDirectory()) mounts.push({ kind: 'ro-bind', path: directory });
  }
  return mounts;
}

/**
 * The installation prefix of the Node.js running the daemon when it lies outside the system directories (nvm,
 * /opt/node…), bound read-only at the same place so the demo server's `node` resolves inside; else undefined.
 */
export function nodeRuntimePrefix(nodeExecutable = process.execPath): string | undefined {
  const prefix = path.dirname(path.dirname(nodeExecutable));
  if (prefix === '/') return undefined;
  const covered = systemMounts().some(
    (mount) => mount.kind === 'ro-bind' && (prefix + path.sep).startsWith(mount.path + path.sep),
  );
  return covered ? undefined : prefix;
}

/** PATH inside the sandbox: the daemon's Node first, then the usual system directories. */
export function sandboxPath(nodeExecutable = process.execPath): string {
  const nodeBin = path.dirname(nodeExecutable);
  const standard = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  return [nodeBin, ...standard.filter((directory) => directory !== nodeBin)].join(':');
}

function lstatOrUndefined(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
