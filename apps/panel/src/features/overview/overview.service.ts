import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { countServersByStatus, listNodes } from './overview.repository';

/** How long the overview waits for each daemon's health before it calls the node offline. */
const HEALTH_TIMEOUT_MS = 2000;

export interface NodeHealth {
  id: number;
  name: string;
  fqdn: string;
  maintenanceMode: boolean;
  online: boolean;
  version: string | null;
  cpuCount: number | null;
  memoryBytes: number | null;
}

/**
 * What the admin overview shows: every node with its daemon's health (asked in parallel, each within 2 s) and the
 * servers counted by state (null = installed and normal).
 */
export class OverviewService {
  readonly #daemon: DaemonClient;

  constructor(private readonly deps: { db: Db; secretBox: SecretBox }) {
    this.#daemon = new DaemonClient(deps.secretBox, { timeoutMs: HEALTH_TIMEOUT_MS });
  }

  async nodes(): Promise<NodeHealth[]> {
    const nodes = await listNodes(this.deps.db);
    return Promise.all(
      nodes.map(async (node) => {
        const system = await this.#daemon.system(node).catch(() => null);
        return {
          id: node.id,
          name: node.name,
          fqdn: node.fqdn,
          maintenanceMode: node.maintenanceMode,
          online: system !== null,
          version: system?.version ?? null,
          cpuCount: system?.cpu_count ?? null,
          memoryBytes: system?.memory_bytes ?? null,
        };
      }),
    );
  }

  async serverCounts(): Promise<{ total: number; byStatus: Record<string, number> }> {
    const byStatus: Record<string, number> = {};
    let total = 0;
    for (const { status, count } of await countServersByStatus(this.deps.db)) {
      byStatus[status ?? 'normal'] = count;
      total += count;
    }
    return { total, byStatus };
  }
}
