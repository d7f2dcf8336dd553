import type { Infrastructure } from '@aerie/panel/infrastructure';
import { DatabaseHostsService } from './database-hosts.service';

/** Database hosts now; per-server databases come with the databases page. */
export function createDatabasesFeature({ db, secretBox, clock }: Infrastructure) {
  return { databaseHosts: new DatabaseHostsService({ db, secretBox, clock }) };
}
