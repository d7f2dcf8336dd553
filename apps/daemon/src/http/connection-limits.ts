/**
 * Bounds on the daemon's HTTP connections (issue 22 finding 5: 22,000 half-sent requests from one address reached
 * the descriptor limit). Each is an option of buildDaemonApp; the defaults are what `aerie daemon` runs with. The
 * panel has the same bounds from the same module.
 */
export {
  type ConnectionLimits,
  connectionCeiling,
  DESCRIPTOR_RESERVE,
  defaultConnectionLimits,
  MAX_CONNECTIONS_CAP,
  openFilesLimit,
} from '@aerie/shared/net/connection-limits';
