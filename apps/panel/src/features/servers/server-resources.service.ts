import {
  type DaemonClient,
  DaemonResponseError,
  DaemonUnreachableError,
} from '@aerie/panel/daemon-client/daemon-client';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { HttpError } from '@aerie/panel/http/errors';
import type { StatsResponse } from '@aerie/shared/servers/server-wire';
import type { ServerRecord } from './server-record';

/** How long one daemon answer is reused for a server (Pterodactyl keeps 20 s; the cards poll every 30 s). */
export const RESOURCES_CACHE_MS = 5000;

const offline = (isSuspended: boolean): StatsResponse => ({
  object: 'stats',
  attributes: {
    current_state: 'offline',
    is_suspended: isSuspended,
    resources: {
      memory_bytes: 0,
      cpu_absolute: 0,
      disk_bytes: 0,
      network_rx_bytes: 0,
      network_tx_bytes: 0,
      uptime: 0,
    },
  },
});

/**
 * `GET /api/client/servers/{server}/resources`: the daemon's live figures as a `stats` item, cached per server
 * for a few seconds. A daemon that cannot be reached, or does not know the server (404), gives the offline
 * figures rather than an error, so a card shows "offline" instead of "Connection Error" while the node is down.
 * Any other daemon error is a 502 DaemonConnectionException.
 */
export class ServerResourcesService {
  readonly #cache = new Map<string, { until: number; stats: StatsResponse }>();

  constructor(
    private readonly daemon: DaemonClient,
    private readonly clock: () => Date,
  ) {}

  async stats(server: ServerRecord, node: NodeRecord): Promise<StatsResponse> {
    const now = this.clock().getTime();
    const cached = this.#cache.get(server.uuid);
    if (cached && cached.until > now) return cached.stats;
    const stats = await this.fetch(server, node);
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(server.uuid, { until: now + RESOURCES_CACHE_MS, stats });
    return stats;
  }

  private async fetch(server: ServerRecord, node: NodeRecord): Promise<StatsResponse> {
    const suspended = server.status === 'suspended';
    try {
      const details = await this.daemon.forServer(node, server.uuid).details();
      const usage = details.utilization ?? {};
      return {
        object: 'stats',
        attributes: {
          current_state: details.state ?? usage.state ?? 'stopped',
          is_suspended: details.is_suspended ?? suspended,
          resources: {
            memory_bytes: usage.memory_bytes ?? 0,
            cpu_absolute: usage.cpu_absolute ?? 0,
            disk_bytes: usage.disk_bytes ?? 0,
            network_rx_bytes: usage.network?.rx_bytes ?? 0,
            network_tx_bytes: usage.network?.tx_bytes ?? 0,
            uptime: usage.uptime ?? 0,
          },
        },
      };
    } catch (error) {
      if (error instanceof DaemonUnreachableError) return offline(suspended);
      if (error instanceof DaemonResponseError && error.status === 404) return offline(suspended);
      if (error instanceof DaemonResponseError) {
        throw new HttpError(
          502,
          'DaemonConnectionException',
          `An error occurred on the remote host: ${error.message}.`,
        );
      }
      throw error;
    }
  }
}
