import type { Infrastructure } from '@aerie/panel/infrastructure';
import { AllocationsService } from './allocations.service';
import { NodeManagementService } from './node-management.service';

/** The nodes feature's services, built once from the infrastructure. */
export function createNodesFeature({ db, clock, secretBox }: Infrastructure) {
  return {
    nodes: new NodeManagementService({ db, clock, secretBox }),
    allocations: new AllocationsService({ db, clock }),
  };
}
