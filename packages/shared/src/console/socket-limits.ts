/** Numbers of the console websocket (spec §9 "Websocket", reference §9.1–9.2). Times in milliseconds. */
export const socketLimits = {
  /** After an unexpected close, the browser opens the socket again this much later. */
  reconnectRetryMs: 1000,
  /** A connection attempt not open after this long is dropped and tried again… */
  connectTimeoutMs: 5000,
  /** …each time waiting this much longer… */
  connectTimeoutStepMs: 2500,
  /** …up to this. */
  connectTimeoutMaxMs: 20_000,
  /** Console lines `send logs` replays. */
  logReplayLines: 150,
  /** Lifetime of a websocket token. */
  tokenTtlMs: 10 * 60 * 1000,
  /** The daemon sends `token expiring` when this little is left (it checks every 30 s). */
  tokenExpiringWindowMs: 60_000,
} as const;

/** The connect time-out after `attempt` attempts timed out (0 → 5 s, 1 → 7.5 s, … capped at 20 s). */
export const connectTimeoutMs = (attempt: number): number =>
  Math.min(
    socketLimits.connectTimeoutMs + attempt * socketLimits.connectTimeoutStepMs,
    socketLimits.connectTimeoutMaxMs,
  );
