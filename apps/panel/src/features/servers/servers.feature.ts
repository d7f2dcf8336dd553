import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { AccessRevocation } from './access-revocation';
import { PowerService } from './power.service';
import { ServerResourcesService } from './server-resources.service';

/**
 * Revocation calls every node while the user waits for their password change: a node that does not answer
 * within this is logged and left (its tokens expire on their own).
 */
const REVOCATION_TIMEOUT_MS = 3000;

/**
 * The server area's services: live resources from the nodes, power signals and console commands (for the routes
 * and the schedule worker), and ending a user's live access on them.
 */
export function createServersFeature(infrastructure: Infrastructure) {
  const { db, secretBox, daemon, clock, log } = infrastructure;
  return {
    serverResources: new ServerResourcesService(daemon, clock),
    power: new PowerService(daemon),
    /** Tells the daemons to end a user's live access. */
    revocation: new AccessRevocation({
      db,
      daemon: new DaemonClient(secretBox, { timeoutMs: REVOCATION_TIMEOUT_MS }),
      log,
    }),
  };
}
