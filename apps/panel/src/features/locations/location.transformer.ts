import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { Location } from './location';

/**
 * `location` (reference application API §3.2): `updated_at` before `created_at`, as upstream. Its `nodes` and
 * `servers` includes are wired by `application-includes.ts`.
 */
export const locationTransformer: Transformer<Location> = {
  object: 'location',
  attributes: (location) => ({
    id: location.id,
    short: location.short,
    long: location.long,
    updated_at: toWireDate(location.updatedAt),
    created_at: toWireDate(location.createdAt),
  }),
};
