import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ServerCreationService } from './server-creation.service';
import { ServerDeletionService } from './server-deletion.service';
import { ServerUpdateService } from './server-update.service';

/**
 * The admin side of servers (the Application API and the admin area): creation by allocation or deployment;
 * details, build, startup, suspension and reinstall; deletion, into which backups and databases hook their
 * clean-up.
 */
export function createAdminServersFeature({ db, daemon, clock, log }: Infrastructure) {
  const deps = { db, daemon, clock, log };
  return {
    serverCreation: new ServerCreationService(deps),
    serverUpdates: new ServerUpdateService(deps),
    serverDeletion: new ServerDeletionService(deps),
  };
}
