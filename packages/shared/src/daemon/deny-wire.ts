/**
 * The daemon's revocation routes (node token), which the panel calls when it takes access away: password change or
 * reset, account deletion, subuser removal or narrowed permissions, suspension. Every websocket token and signed
 * file URL they name that was issued at or before the call is refused from then on, and open console sockets of
 * those users are closed at once. Both answer 204; a body that is not one of these shapes is 400.
 */

/** `POST /api/servers/{uuid}/ws/deny`: at least one of the two lists (Wings sends `jtis` alone). */
export interface DaemonServerDenyBody {
  /** md5(user id . server uuid): the `jti` of that user's tokens for this server. */
  jtis?: string[];
  /** Every token of these users for this server, whatever its jti. */
  user_uuids?: string[];
}

/** `POST /api/deny`: these users' tokens for every server on the node. */
export interface DaemonNodeDenyBody {
  user_uuids: string[];
}

/** Longest list the daemon takes in one call, and longest entry; the panel splits bigger denials. */
export const denyLimits = {
  maxEntries: 1000,
  maxEntryLength: 255,
} as const;
