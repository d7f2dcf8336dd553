/** Who servers run as when the daemon itself is root: Wings' `pterodactyl` user is 988 in its image. */
export const ROOT_DAEMON_CONTAINER_USER = '988:988';

/**
 * The `uid:gid` a server container runs as: the daemon's own user, so the files the game writes stay the daemon's,
 * unless the daemon is root — a game must never run as root, so then it gets the unprivileged 988:988.
 */
export function defaultContainerUser(): string {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  return uid === 0 ? ROOT_DAEMON_CONTAINER_USER : `${uid}:${gid}`;
}

/** The numeric ids of `uid:gid`, or undefined for a user name the engine resolves inside the image. */
export function numericUser(user: string): { uid: number; gid: number } | undefined {
  const match = /^(\d+)(?::(\d+))?$/.exec(user);
  if (!match) return undefined;
  const uid = Number(match[1]);
  return { uid, gid: match[2] === undefined ? uid : Number(match[2]) };
}
