import type { SystemMount } from './sandbox-mounts';

/** Wings' `docker.tmpfs_size` (100 MB) for the sandbox's private /tmp. */
export const TMP_SIZE_BYTES = 100 * 1024 * 1024;
/** /dev/shm, as Docker sizes a container's (64 MB): POSIX shared memory works, without taking the host's RAM. */
export const SHM_SIZE_BYTES = 64 * 1024 * 1024;

/** A host directory shown inside at `target`. */
export interface Bind {
  source: string;
  target: string;
  writable: boolean;
}

/** What one sandboxed command sees and may do. */
export interface BubblewrapSpec {
  mounts: readonly SystemMount[];
  /** Further host directories: the volume (writable), the install script and Node's prefix (read-only). */
  binds: readonly Bind[];
  workingDirectory: string;
  /** The command and its arguments, resolved inside the sandbox. */
  command: readonly string[];
}

/**
 * bubblewrap's arguments for one game server or install script: new user, PID, IPC and cgroup namespaces, a
 * private /proc and /dev, a private /tmp, the system read-only, the volume as the only writable place, and
 * --die-with-parent so the sandbox never outlives what holds its console. The network is the host's: a game
 * listens on its allocation's ports there, as with Docker's host ports.
 */
export function bubblewrapArgs(spec: BubblewrapSpec): string[] {
  const args = [
    '--die-with-parent',
    '--unshare-user',
    // No user namespaces inside: they are the usual first step of a kernel exploit.
    '--disable-userns',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'container',
    '--cap-drop',
    'ALL',
  ];
  for (const mount of spec.mounts) {
    if (mount.kind === 'symlink') args.push('--symlink', mount.target, mount.path);
    else args.push('--ro-bind', mount.path, mount.path);
  }
  // /tmp and /dev/shm live in memory: capped (Wings' 100 MB tmpfs, Docker's 64 MB shm), so they cannot be used to
  // fill the host's RAM.
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(SHM_SIZE_BYTES), '--tmpfs', '/dev/shm');
  args.push('--size', String(TMP_SIZE_BYTES), '--tmpfs', '/tmp');
  for (const bind of spec.binds) args.push(bind.writable ? '--bind' : '--ro-bind', bind.source, bind.target);
  // bubblewrap's own root and /dev are tmpfs of no set size that the game's uid owns: read-only once built, so a
  // game writes only its volume, /tmp and /dev/shm (a game with no memory limit once pinned 1.5 GB there).
  args.push('--remount-ro', '/dev', '--remount-ro', '/');
  args.push('--chdir', spec.workingDirectory, '--', ...spec.command);
  return args;
}
