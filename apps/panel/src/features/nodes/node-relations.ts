import { type Relation, toMany, toOne } from '@aerie/panel/http/application/transformer';
import { allocationsOfServers } from './allocations.repository';
import { findNodes, findNodesInLocations } from './nodes.repository';

// Application API includes that render nodes and allocations for other features' items; the include registry
// (`application-includes.ts`) wires them.

/** A parent's node (a server's). */
export const nodeById = <T>(idOf: (parent: T) => number | null): Relation<T> =>
  toOne('nodes', 'node', findNodes, idOf);

/** A location's nodes. */
export const nodesInLocation = <T>(locationIdOf: (parent: T) => number): Relation<T> =>
  toMany('nodes', 'node', findNodesInLocations, (node) => node.locationId, locationIdOf);

/** A server's allocations. */
export const allocationsOfServer = <T>(serverIdOf: (parent: T) => number): Relation<T> =>
  toMany('allocations', 'allocation', allocationsOfServers, (allocation) => allocation.serverId, serverIdOf);
