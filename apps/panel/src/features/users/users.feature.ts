import type { Infrastructure } from '@aerie/panel/infrastructure';
import { UsersService } from './users.service';

/** The users feature's services, built once from the infrastructure. */
export function createUsersFeature({ db, clock }: Infrastructure) {
  return { users: new UsersService({ db, clock }) };
}
