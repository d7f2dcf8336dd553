import { toWireDate } from '@aerie/panel/db/dialect';
import { nodeTransformer } from '@aerie/panel/features/nodes/node.transformer';
import { findNodesInLocations } from '@aerie/panel/features/nodes/nodes.repository';
import { groupBy, type Transformer } from '@aerie/panel/http/application/transformer';
import type { Location } from './location';

/** `location` (reference application API §3.2): `updated_at` before `created_at`, as upstream. */
export const locationTransformer: Transformer<Location> = {
  object: 'location',
  attributes: (location) => ({
    id: location.id,
    short: location.short,
    long: location.long,
    updated_at: toWireDate(location.updatedAt),
    created_at: toWireDate(location.createdAt),
  }),
  includes: {
    nodes: {
      gate: 'nodes',
      transformer: () => nodeTransformer,
      load: async (db, locations) => {
        const byLocation = groupBy(
          await findNodesInLocations(
            db,
            locations.map((location) => location.id),
          ),
          (node) => node.locationId,
        );
        return new Map(locations.map((location) => [location, byLocation.get(location.id) ?? []]));
      },
    },
  },
};
