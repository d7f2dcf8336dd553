import type { Infrastructure } from '@aerie/panel/infrastructure';
import { AdminRolesService } from './admin-roles.service';

export function createAdminRolesFeature({ db, clock }: Infrastructure) {
  return { adminRoles: new AdminRolesService({ db, clock }) };
}
