import {
  type DaemonClient,
  DaemonResponseError,
  DaemonUnreachableError,
} from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError } from '@aerie/panel/daemon-client/daemon-http-error';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { HttpError } from '@aerie/panel/http/errors';
import type { StatsResponse } from '@aerie/shared/servers/server-wire';
import type { ServerRecord } from './server-record';

/** How long one daemon answer is reused for a server (Pterodactyl keeps 20 s; the cards poll every 30 s). */
export const RESOURCES_CACHE_MS = 5000;

/**
 * How long a server's last answer stands in while its daemon cannot be reached: long enough for a daemon to
 * restart (games keep running meanwhile), short enough that a node that is gone reads as a connection error.
 */
export const LAST_KNOWN_STATE_MS = 15 * 60_000;

/** Servers whose last answer is kept (the oldest is forgotten first). */
const LAST_KNOWN_MAX = 20_000;

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
 * for a few seconds. While the daemon cannot be reached (it restarts; its games keep running), the server's last
 * answer stands in, marked `is_node_reconnecting`, rather than a false "offline"; with none from the last 15
 * minutes it is a 502 DaemonConnectionException (the card's "Connection Error"). A daemon that does not know the
 * server (404) gives the offline figures; any other daemon error is a 502.
 */
export class ServerResourcesService {
  readonly #cache = new Map<string, { until: number; stats: StatsResponse }>();
  /** Each server's last live answer, per panel process (a replica that never saw one answers the 502). */
  readonly #lastKnown = new Map<string, { at: number; stats: StatsResponse }>();

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
    try {
      const stats = await this.live(server, node);
      this.#remember(server.uuid, stats);
      return stats;
    } catch (error) {
      if (!(error instanceof DaemonUnreachableError)) throw error;
      const last = this.#lastKnown.get(server.uuid);
      if (!last || this.clock().getTime() - last.at > LAST_KNOWN_STATE_MS) throw daemonHttpError(error);
      return {
        ...last.stats,
        attributes: {
          ...last.stats.attributes,
          is_suspended: last.stats.attributes.is_suspended || server.status === 'suspended',
          is_node_reconnecting: true,
        },
      };
    }
  }

  #remember(uuid: string, stats: StatsResponse): void {
    this.#lastKnown.delete(uuid);
    this.#lastKnown.set(uuid, { at: this.clock().getTime(), stats });
    if (this.#lastKnown.size > LAST_KNOWN_MAX) {
      const oldest = this.#lastKnown.keys().next().value;
      if (oldest !== undefined) this.#lastKnown.delete(oldest);
    }
  }

  /** The daemon's answer now. @throws DaemonUnreachableError when it cannot be reached */
  private async live(server: ServerRecord, node: NodeRecord): Promise<StatsResponse> {
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
