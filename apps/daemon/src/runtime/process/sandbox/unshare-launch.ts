import type { Bind } from './bubblewrap-args';
import type { SystemMount } from './sandbox-mounts';

/** What one unshare sandbox sees and runs: the same view bubblewrap builds, made by a shell script. */
export interface UnshareSpec {
  /** An empty folder to build the new root in (mounted over, privately). */
  staging: string;
  mounts: readonly SystemMount[];
  binds: readonly Bind[];
  /** `cgroup.procs` files the sandbox joins before anything else (root only). */
  cgroupProcs: readonly string[];
  workingDirectory: string;
  /** As root: the server's uid; else the sandbox keeps user namespace root with every capability dropped. */
  uid: number | undefined;
  tmpSizeBytes: number;
  command: readonly string[];
}

/** Devices a game may open, bound from the host's /dev (a user namespace may not create device nodes). */
const DEVICES = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];

/**
 * Builds the new root: a tmpfs with the system directories bound read-only, the volume (and other binds), a
 * fresh /proc of the new PID namespace, a minimal /dev and a capped /tmp; then chroot into it and drop to the
 * server's uid (or, unprivileged, to no capabilities at all). Arguments after the script: the binds as
 * `source target rw|ro` triples, `--`, the command. Any failure exits 125 before the game runs.
 */
function script(spec: UnshareSpec): string {
  const root = `${spec.staging}/root`;
  const lines = [
    'fail() { echo "aerie sandbox: $1" >&2; exit 125; }',
    ...spec.cgroupProcs.map((procs) => `echo $$ > '${procs}' || fail 'cannot join ${procs}'`),
    `mount -t tmpfs -o mode=0755,size=1m aerie-sandbox '${spec.staging}' || fail 'tmpfs'`,
    `R='${root}'; mkdir "$R" || fail 'root'`,
    // ro binds: bind, then remount read-only (nosuid, nodev: allowed to add, never needed by a game).
    'robind() { mkdir -p "$R$2" && mount --rbind "$1" "$R$2" && mount -o remount,bind,ro,nosuid,nodev "$R$2" || fail "bind $2"; }',
    'rwbind() { mkdir -p "$R$2" && mount --bind "$1" "$R$2" && mount -o remount,bind,nosuid,nodev "$R$2" || fail "bind $2"; }',
    ...spec.mounts.map((mount) =>
      mount.kind === 'symlink'
        ? `ln -s '${mount.target}' "$R${mount.path}" || fail 'link ${mount.path}'`
        : `robind '${mount.path}' '${mount.path}'`,
    ),
    'while [ "$1" != -- ]; do if [ "$3" = rw ]; then rwbind "$1" "$2"; else robind "$1" "$2"; fi; shift 3; done; shift',
    'mkdir "$R/proc" && mount -t proc -o nosuid,nodev,noexec proc "$R/proc" || fail proc',
    'mkdir "$R/dev" && mount -t tmpfs -o mode=0755,size=64k,nosuid,noexec aerie-dev "$R/dev" || fail dev',
    `for d in ${DEVICES.join(' ')}; do touch "$R/dev/$d" && mount --bind "/dev/$d" "$R/dev/$d" || fail "/dev/$d"; done`,
    'ln -s /proc/self/fd "$R/dev/fd"; ln -s fd/0 "$R/dev/stdin"; ln -s fd/1 "$R/dev/stdout"; ln -s fd/2 "$R/dev/stderr"',
    'mkdir "$R/dev/shm" && mount -t tmpfs -o size=64m,nosuid,nodev aerie-shm "$R/dev/shm" || fail shm',
    `mkdir -p "$R/tmp" && mount -t tmpfs -o mode=1777,size=${spec.tmpSizeBytes},nosuid,nodev aerie-tmp "$R/tmp" || fail tmp`,
    'hostname container 2>/dev/null',
  ];
  const drop =
    spec.uid === undefined
      ? 'setpriv --no-new-privs --bounding-set=-all --inh-caps=-all --securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked --'
      : `setpriv --reuid=${spec.uid} --regid=${spec.uid} --clear-groups --no-new-privs --bounding-set=-all --inh-caps=-all --`;
  lines.push(`exec chroot "$R" ${drop} /bin/sh -c 'cd "$0" && exec "$@"' '${spec.workingDirectory}' "$@"`);
  return lines.join('\n');
}

/**
 * The `unshare` arguments for one sandbox, for hosts without bubblewrap: new mount, PID, IPC and UTS namespaces
 * (and a user namespace when the daemon is not root), pid 1 of the new namespace being the sandbox itself so it
 * ends with its game. `setpriv --pdeathsig` ties it to the daemon as bubblewrap's --die-with-parent does.
 */
export function unshareArgs(spec: UnshareSpec): { file: string; args: string[] } {
  const namespaces = [
    '--mount',
    '--pid',
    '--ipc',
    '--uts',
    '--fork',
    '--kill-child',
    '--propagation',
    'private',
  ];
  if (spec.uid === undefined) namespaces.unshift('--user', '--map-root-user');
  const binds = spec.binds.flatMap((bind) => [bind.source, bind.target, bind.writable ? 'rw' : 'ro']);
  return {
    file: 'setpriv',
    args: [
      '--pdeathsig',
      'KILL',
      '--',
      'unshare',
      ...namespaces,
      '--',
      '/bin/sh',
      '-c',
      script(spec),
      'aerie-sandbox',
      ...binds,
      '--',
      ...spec.command,
    ],
  };
}
