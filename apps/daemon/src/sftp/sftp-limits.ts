/**
 * Bounds of the daemon's SFTP server (issue 14; Wings had none and a malformed handshake could take it down,
 * CVE-2026-52856). Each is an option of `SftpServer`; the defaults are what `aerie daemon` runs with.
 */
export interface SftpLimits {
  /** Open connections in all, authenticated or not; the next one is closed as it is accepted. */
  maxConnections: number;
  /** Open connections from one address (an IPv6 client counts by its /64, as the HTTP API). */
  maxConnectionsPerAddress: number;
  /** Logged-in sessions on one server, whoever holds them; a login past it is refused. */
  maxSessionsPerServer: number;
  /** Authentication requests one connection may make (OpenSSH's MaxAuthTries); then it is closed. */
  maxAuthAttempts: number;
  /** From connecting to being logged in (handshake and authentication); then the connection is closed. */
  loginTimeoutMs: number;
  /** A logged-in connection with no SFTP request and nothing in progress for this long is closed. */
  idleTimeoutMs: number;
  /** Files and folders one connection may hold open at once (a further open fails, the connection stays). */
  maxOpenHandles: number;
  /** SFTP requests being worked on at once per connection; past it the connection is not read until some finish. */
  maxRequestsInFlight: number;
  /** Bytes of writes being worked on at once per connection (their data is in memory until written): same. */
  maxWriteBytesInFlight: number;
  /**
   * Answers queued while the client grants no window to send them in: a client that asks and never reads is
   * closed past this many, so unread answers cannot pile up in the daemon's memory.
   */
  maxUnsentAnswers: number;
  /** Session channels one connection may open (OpenSSH's sftp opens one). */
  maxChannelsPerConnection: number;
}

export const DEFAULT_SFTP_LIMITS: SftpLimits = {
  maxConnections: 512,
  maxConnectionsPerAddress: 32,
  maxSessionsPerServer: 32,
  maxAuthAttempts: 6,
  loginTimeoutMs: 30_000,
  idleTimeoutMs: 15 * 60_000,
  maxOpenHandles: 64,
  maxRequestsInFlight: 64,
  maxWriteBytesInFlight: 4 * 1024 * 1024,
  maxUnsentAnswers: 512,
  maxChannelsPerConnection: 4,
};
