import { toWireDate } from '@aerie/panel/db/dialect';
import { groupBy, type Transformer } from '@aerie/panel/http/application/transformer';
import { listEggsOfNests, type Nest } from './eggs.repository';

/** `nest` of the Application API (reference §3.7). */
export const nestTransformer: Transformer<Nest> = {
  object: 'nest',
  attributes: (nest) => ({
    id: nest.id,
    uuid: nest.uuid,
    author: nest.author,
    name: nest.name,
    description: nest.description,
    created_at: toWireDate(nest.createdAt),
    updated_at: toWireDate(nest.updatedAt),
  }),
  includes: {
    eggs: {
      gate: 'eggs',
      renders: 'egg',
      async load(db, nests) {
        const byNest = groupBy(
          await listEggsOfNests(
            db,
            nests.map((nest) => nest.id),
          ),
          (egg) => egg.nestId,
        );
        return new Map(nests.map((nest) => [nest, byNest.get(nest.id) ?? []]));
      },
    },
  },
};
