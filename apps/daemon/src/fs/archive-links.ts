import { pathComponents } from './jail-path';

/**
 * Where the server's folder appears to what runs in it: the game (docker and the process sandbox both mount it at
 * /home/container, runtime/docker/container-spec.ts, runtime/process/sandbox/sandbox-mounts.ts) and its installer
 * (/mnt/server). SteamCMD and install scripts write absolute links through these.
 */
export const VOLUME_MOUNTS = ['/home/container', '/mnt/server'] as const;

/**
 * Whether a symbolic link at `components` (below the root) whose text is `target` points inside the server's
 * files as the game sees them: a relative target that never climbs above the root, or an absolute one under a
 * mount of the volume. Backups keep only such links and restores make only such links, so every backup restores;
 * a link leading anywhere else (`/etc`, `../../..`) is the shape of the classic archive escape and is refused.
 * Even an accepted link is never followed by the daemon outside the root (the jail checks every descriptor).
 */
export function linkStaysInside(components: readonly string[], target: string): boolean {
  if (target === '' || target.includes('\0')) return false;
  let relative: string;
  if (target.startsWith('/')) {
    const mount = VOLUME_MOUNTS.find((prefix) => target === prefix || target.startsWith(`${prefix}/`));
    if (mount === undefined) return false;
    relative = target.slice(mount.length);
  } else {
    relative = [...components.slice(0, -1), target].join('/');
  }
  try {
    pathComponents(relative);
    return true;
  } catch {
    return false;
  }
}
