import type { Relation } from '@aerie/panel/http/application/transformer';
import { toOne } from '@aerie/panel/http/application/transformer';
import { findLocations, findLocationsOfNodes } from './locations.repository';

// Application API includes that render locations for other features' items; the include registry
// (`application-includes.ts`) wires them.

/** A parent's location by its id (a node's). */
export const locationById = <T>(idOf: (parent: T) => number | null): Relation<T> =>
  toOne('locations', 'location', findLocations, idOf);

/** The location of a parent's node (a server's), one query for all parents. */
export const locationOfNode = <T>(nodeIdOf: (parent: T) => number): Relation<T> => ({
  gate: 'locations',
  renders: 'location',
  async load(db, parents) {
    const found = await findLocationsOfNodes(db, parents.map(nodeIdOf));
    const byNode = new Map(found.map((entry) => [entry.nodeId, entry.location]));
    return new Map(parents.map((parent) => [parent, byNode.get(nodeIdOf(parent)) ?? null]));
  },
});
