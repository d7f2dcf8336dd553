import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ServerManagementService } from './server-management.service';

/**
 * The admin side of servers (the Application API and the admin area): creation by allocation or deployment, build,
 * startup, suspension, reinstall and delete. Backups and databases hook their clean-up into its deletion.
 */
export function createAdminServersFeature({ db, daemon, clock, log }: Infrastructure) {
  return { serverManagement: new ServerManagementService({ db, daemon, clock, log }) };
}
