import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';

/** A host path shown to the game at `target`: checked against the node's allowed mounts (resolveCustomMounts). */
export interface CustomMount {
  /** The host path with every link resolved: what is bound, so a link swapped later changes nothing. */
  source: string;
  target: string;
  readOnly: boolean;
}

/** What the node allows: `allowed_mounts`, less the daemon's own data (never shown to a game). */
export interface MountPolicy {
  /** Absolute host paths (DAEMON_ALLOWED_MOUNTS); a mount's source must resolve to one of them or beneath. */
  allowed: readonly string[];
  /** The daemon's data and backup directories: every server's files and backups live there. */
  protectedPaths: readonly string[];
}

export interface RefusedMount {
  target: string;
  reason: string;
}

type RequestedMount = DaemonServerConfiguration['settings']['mounts'][number];

/** Where a game's own files are, and the kernel's: a mount there would hide or replace what the game needs. */
const RESERVED_TARGETS = ['/home/container', '/proc', '/sys', '/dev'];

/** `inner` is `outer` or lies beneath it, by whole names: `/mnt/a` holds `/mnt/a/b`, not `/mnt/abc` (Wings' bug). */
export const isWithin = (inner: string, outer: string): boolean =>
  inner === outer || inner.startsWith(outer === '/' ? '/' : `${outer}/`);

async function realOrUndefined(value: string): Promise<string | undefined> {
  return realpath(value).catch(() => undefined);
}

/**
 * The mounts the panel asks for that this node allows, with their sources resolved, and why the others are left
 * out. A source must resolve (links followed) to a path within one of `allowed` (themselves resolved), and may
 * neither hold nor lie in the daemon's data directory; a target must be absolute and outside the game's own
 * directory and the kernel's. Checked at each start, so a link planted since then is caught.
 */
export async function resolveCustomMounts(
  requested: readonly RequestedMount[],
  policy: MountPolicy,
): Promise<{ mounts: CustomMount[]; refused: RefusedMount[] }> {
  const mounts: CustomMount[] = [];
  const refused: RefusedMount[] = [];
  if (requested.length === 0) return { mounts, refused };
  const allowed = (await Promise.all(policy.allowed.map(realOrUndefined))).filter(
    (entry): entry is string => entry !== undefined,
  );
  const guarded = await Promise.all(
    policy.protectedPaths.map(async (entry) => (await realOrUndefined(entry)) ?? path.resolve(entry)),
  );
  const seen = new Set<string>();
  for (const mount of requested) {
    const refuse = (reason: string) => refused.push({ target: mount.target, reason });
    if (!mount.target.startsWith('/') || mount.target.includes('\0')) {
      refuse('its target is not an absolute path');
      continue;
    }
    const target = path.posix.resolve(mount.target);
    if (target === '/' || RESERVED_TARGETS.some((reserved) => isWithin(target, reserved))) {
      refuse(`${target} is reserved`);
      continue;
    }
    if (seen.has(target)) {
      refuse('another mount has the same target');
      continue;
    }
    if (!mount.source.startsWith('/') || mount.source.includes('\0')) {
      refuse('its source is not an absolute path');
      continue;
    }
    const source = await realOrUndefined(mount.source);
    if (!source) {
      refuse('its source does not exist on this node');
      continue;
    }
    if (!(await stat(source).catch(() => undefined))?.isDirectory()) {
      refuse('its source is not a directory');
      continue;
    }
    if (!allowed.some((entry) => isWithin(source, entry))) {
      refuse('its source is not within the allowed mounts of this node');
      continue;
    }
    if (guarded.some((entry) => isWithin(source, entry) || isWithin(entry, source))) {
      refuse("its source overlaps the daemon's own data");
      continue;
    }
    seen.add(target);
    mounts.push({ source, target, readOnly: mount.read_only });
  }
  return { mounts, refused };
}
