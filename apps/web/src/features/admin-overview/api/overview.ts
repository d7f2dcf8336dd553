import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import type { ApplicationItem } from '@/lib/application-api';

interface OverviewAttributes {
  version: string;
  nodes: {
    id: number;
    name: string;
    fqdn: string;
    maintenance_mode: boolean;
    online: boolean;
    version: string | null;
    cpu_count: number | null;
    memory_bytes: number | null;
  }[];
  servers: { total: number; by_status: Record<string, number> };
}

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

export interface Overview {
  version: string;
  nodes: NodeHealth[];
  servers: { total: number; byStatus: Record<string, number> };
}

/** GET /api/application/overview */
export async function getOverview(signal?: AbortSignal): Promise<Overview> {
  const { attributes } = await apiClient.get<ApplicationItem<OverviewAttributes>>(
    '/api/application/overview',
    {
      signal,
    },
  );
  return {
    version: attributes.version,
    nodes: attributes.nodes.map((node) => ({
      id: node.id,
      name: node.name,
      fqdn: node.fqdn,
      maintenanceMode: node.maintenance_mode,
      online: node.online,
      version: node.version,
      cpuCount: node.cpu_count,
      memoryBytes: node.memory_bytes,
    })),
    servers: { total: attributes.servers.total, byStatus: attributes.servers.by_status },
  };
}

/** Node health is live: asked again every 30 s while the overview is open. */
export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'overview'] as const,
    queryFn: ({ signal }) => getOverview(signal),
    refetchInterval: 30_000,
  });
