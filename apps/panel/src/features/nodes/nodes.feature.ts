import type { Infrastructure } from '@aerie/panel/infrastructure';

/** The nodes feature's services, built once from the infrastructure. */
export function createNodesFeature(_infrastructure: Infrastructure) {
  return {};
}
