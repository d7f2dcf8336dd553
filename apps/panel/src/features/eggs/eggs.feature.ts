import type { Infrastructure } from '@aerie/panel/infrastructure';

/** The eggs feature's services, built once from the infrastructure. */
export function createEggsFeature(_infrastructure: Infrastructure) {
  return {};
}
