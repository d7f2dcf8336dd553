import type { Infrastructure } from '@aerie/panel/infrastructure';

/** The users feature's services, built once from the infrastructure. */
export function createUsersFeature(_infrastructure: Infrastructure) {
  return {};
}
