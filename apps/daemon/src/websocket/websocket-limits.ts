/**
 * Bounds on the console websocket (Wings had none before CVE-2025-69199). Each is an option of the plugin;
 * the defaults suit a browser console page, which sends a handful of small messages per minute.
 */
export interface ConsoleWebsocketLimits {
  /**
   * Authenticated sockets per server. Counted at the first valid `auth`: one more is closed with 1013. Sockets
   * that have not authenticated never take one of these places (they have their own allowance below).
   */
  maxSocketsPerServer: number;
  /**
   * Authenticated sockets one user (the token's `user_uuid`) may hold on one server; one more is closed with 1013.
   * It is also the owner's share: sockets whose token lacks `*` (subusers) together hold at most
   * `maxSocketsPerServer − maxSocketsPerUser` places, so however many sockets subusers open, the owner gets in.
   */
  maxSocketsPerUser: number;
  /** Authenticated sockets per client address over all servers; one more is closed with 1013. */
  maxSocketsPerIp: number;
  /**
   * Sockets per client address that have not authenticated yet; past it the upgrade is refused (429). A socket
   * never makes room by closing another: sockets opened without a token, from any number of addresses, cannot
   * close or keep out a real user, who sends `auth` a moment after the upgrade. Bounded in all by the HTTP
   * connection guard and the auth time-out.
   */
  maxPendingPerIp: number;
  /** Largest inbound frame; a bigger one closes the socket with 1009. A JWT with every permission fits. */
  maxFrameBytes: number;
  /**
   * Inbound messages per second, refilled continuously; one more closes the socket with 1008. Closing rather
   * than dropping: a console page never comes near it, and silently lost commands would be worse than a
   * reconnect.
   */
  messagesPerSecond: number;
  /** …with room for this many at once (a reconnect sends auth, send logs and send stats together). */
  messageBurst: number;
  /** A socket that has not sent a valid `auth` by then is closed with 1008 (a page sends it at once). */
  authTimeoutMs: number;
  /** Console lines a slow socket keeps queued; older ones are dropped (Wings keeps 8). */
  maxQueuedLines: number;
  /** Bytes the socket may have waiting to be written before lines queue (and then drop) instead. */
  sendBufferHighWaterBytes: number;
  /** How often the token watcher looks at `exp` (Wings: 30 s). */
  tokenCheckIntervalMs: number;
}

export const DEFAULT_WEBSOCKET_LIMITS: Readonly<ConsoleWebsocketLimits> = {
  maxSocketsPerServer: 30,
  maxSocketsPerUser: 10,
  maxSocketsPerIp: 50,
  maxPendingPerIp: 5,
  maxFrameBytes: 4 * 1024,
  messagesPerSecond: 10,
  messageBurst: 20,
  authTimeoutMs: 5_000,
  maxQueuedLines: 8,
  sendBufferHighWaterBytes: 1024 * 1024,
  tokenCheckIntervalMs: 30_000,
};

/** `token expiring` once this little of the token's life is left. */
export const TOKEN_EXPIRING_SECONDS = 60;

/** Control messages (status, auth replies…) a socket may have queued before it counts as dead and is cut. */
export const MAX_QUEUED_CONTROL_MESSAGES = 64;

/** Close codes and reasons the daemon uses. */
export const CLOSE = {
  serverDeleted: { code: 1001, reason: 'server deleted' },
  /** 1001 like a deletion: the browser does not reconnect to a server it may not use. */
  serverSuspended: { code: 1001, reason: 'server suspended' },
  authTimeout: { code: 1008, reason: 'authentication timeout' },
  rateLimited: { code: 1008, reason: 'message rate limit exceeded' },
  /** The panel denied the socket's token: the browser reconnects with a fresh one if it still may. */
  tokenRevoked: { code: 1008, reason: 'token revoked' },
  serverFull: {
    code: 1013,
    reason: 'Too many console connections to this server; close one and try again.',
  },
  userFull: {
    code: 1013,
    reason: 'Too many console connections of this user to this server; close one and try again.',
  },
  addressFull: {
    code: 1013,
    reason: 'Too many console connections from this address; close one and try again.',
  },
} as const;
