import type { ManagedServer } from '@aerie/daemon/server/managed-server';

/** Wings' server object: `GET /api/servers/:server` and each entry of `GET /api/servers`. */
export function presentServer(server: ManagedServer) {
  return {
    state: server.state,
    is_suspended: server.isSuspended,
    /** Aerie's: whether a transfer is sending the server away (the panel checks transfers it has not heard of). */
    is_transferring: server.isTransferring,
    utilization: server.stats(),
    configuration: server.configuration.settings,
  };
}
