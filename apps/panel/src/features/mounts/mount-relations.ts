import type { Db } from '@aerie/panel/db/database';
import type { Relation } from '@aerie/panel/http/application/transformer';
import type { AdminResource } from '@aerie/shared/api-keys/application-keys-wire';
import type { Mount } from './mount';
import { type MountRelation, pivotsOfMounts } from './mounts.repository';

/**
 * A mount's eggs, nodes or servers as an Application API include (wired by `application-includes.ts`): the pivot
 * rows of every mount in one query, then the items in one more, rendered by the registry's `renders`.
 */
export function mountRelation<R>(
  relation: MountRelation,
  gate: AdminResource,
  renders: string,
  find: (db: Db, ids: number[]) => Promise<R[]>,
  idOf: (item: R) => number,
): Relation<Mount> {
  return {
    gate,
    renders,
    async load(db, mounts) {
      const pivots = await pivotsOfMounts(
        db,
        relation,
        mounts.map((mount) => mount.id),
      );
      const ids = [...new Set(pivots.map((pivot) => pivot.id))];
      const items = new Map((ids.length === 0 ? [] : await find(db, ids)).map((item) => [idOf(item), item]));
      return new Map(
        mounts.map((mount) => [
          mount,
          pivots
            .filter((pivot) => pivot.mountId === mount.id)
            .map((pivot) => items.get(pivot.id))
            .filter((item): item is R => item !== undefined),
        ]),
      );
    },
  };
}
