/** The `stats` event's JSON (`args[0]`), Wings' utilization object; also `utilization` of the daemon's server view. */
export interface ServerStatsWire {
  memory_bytes: number;
  memory_limit_bytes: number;
  cpu_absolute: number;
  network: { rx_bytes: number; tx_bytes: number };
  /** Milliseconds since the process started; 0 when offline. */
  uptime: number;
  state: string;
  disk_bytes: number;
}

const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Reads `args[0]` of a `stats` event; missing or non-numeric figures count as 0, and anything that is not a JSON
 * object gives null (the figures on screen then stay as they were).
 */
export function parseServerStats(json: string | undefined): ServerStatsWire | null {
  if (json === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const stats = value as Record<string, unknown>;
  const network = (
    typeof stats.network === 'object' && stats.network !== null ? stats.network : {}
  ) as Record<string, unknown>;
  return {
    memory_bytes: number(stats.memory_bytes),
    memory_limit_bytes: number(stats.memory_limit_bytes),
    cpu_absolute: number(stats.cpu_absolute),
    network: { rx_bytes: number(network.rx_bytes), tx_bytes: number(network.tx_bytes) },
    uptime: number(stats.uptime),
    state: typeof stats.state === 'string' ? stats.state : '',
    disk_bytes: number(stats.disk_bytes),
  };
}
