import type { ManagedServer } from '@aerie/daemon/server/managed-server';

/** Wings' server object: `GET /api/servers/:server` and each entry of `GET /api/servers`. */
export function presentServer(server: ManagedServer) {
  return {
    state: server.state,
    is_suspended: server.isSuspended,
    utilization: server.stats(),
    configuration: server.configuration.settings,
  };
}
