import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import { committedOn, fits, lockNode } from '@aerie/panel/features/nodes/node-capacity';
import { claimFreeAllocations, findAllocationHolder } from '@aerie/panel/features/nodes/server-allocations';
import { storeVariables } from './server-variables.repository';
import { insertServerRow, serverWithExternalId } from './servers.repository';

/** Everything a new server's row holds; the Application API, bootstrap and the test factories all fill it. */
export interface ServerDraft {
  name: string;
  description: string;
  ownerId: number;
  externalId: string | null;
  /** `installing` for a server its daemon still has to install; null once installed. */
  status: string | null;
  installedAt: Date | null;
  skipScripts: boolean;
  oomDisabled: boolean;
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number; threads: string | null };
  featureLimits: { allocations: number | null; databases: number | null; backups: number | null };
  egg: { id: number; nestId: number };
  startup: string;
  image: string;
  /** The value to store per egg variable id. */
  variables: Map<number, string>;
  /** The node and the allocations to claim on it, the primary first; each must be free. */
  placement: { nodeId: number; allocationIds: readonly [number, ...number[]] };
}

/** An allocation of the placement was taken by another request (or is not on the node). */
export class AllocationTaken extends Error {}

/** The node has no room left for the server's memory or disk (checked under the node's lock). */
export class NodeFull extends Error {}

/** Another server holds the draft's external id. */
export class ExternalIdTaken extends Error {}

/**
 * The one way a server comes to exist: in one transaction under the node's row lock, the node's capacity is
 * checked, the row inserted, its allocations claimed and its variables stored, so parallel creations can never both
 * take the last memory or the same allocation. The identifier is the first 8 characters of a fresh uuid, drawn
 * again on the rare collision. `inTransaction` runs last in that transaction (the Application API records its audit
 * entry there), so it commits or rolls back with the server.
 * @throws AllocationTaken, NodeFull, ExternalIdTaken
 */
export async function createServerRecord(
  db: Db,
  draft: ServerDraft,
  now: Date,
  inTransaction?: (tx: Tx, id: number) => Promise<void>,
) {
  const { nodeId, allocationIds } = draft.placement;
  for (let attempt = 0; ; attempt++) {
    const uuid = randomUUID();
    try {
      return await db.transaction().execute(async (tx) => {
        const node = await lockNode(tx, nodeId);
        if (!node) throw new AllocationTaken();
        if (!fits(node, await committedOn(tx, nodeId), draft.limits)) throw new NodeFull();
        const id = await insertServerRow(tx, {
          uuid,
          uuid_short: uuid.slice(0, 8),
          external_id: draft.externalId,
          node_id: nodeId,
          name: draft.name,
          description: draft.description,
          status: draft.status,
          skip_scripts: draft.skipScripts,
          owner_id: draft.ownerId,
          ...draft.limits,
          oom_disabled: draft.oomDisabled,
          allocation_id: allocationIds[0],
          nest_id: draft.egg.nestId,
          egg_id: draft.egg.id,
          startup: draft.startup,
          image: draft.image,
          allocation_limit: draft.featureLimits.allocations,
          database_limit: draft.featureLimits.databases,
          backup_limit: draft.featureLimits.backups,
          installed_at: draft.installedAt,
          created_at: now,
          updated_at: now,
        });
        const claimed = await claimFreeAllocations(tx, id, nodeId, allocationIds, now);
        if (claimed !== new Set(allocationIds).size) throw new AllocationTaken();
        await storeVariables(tx, id, draft.variables, now);
        await inTransaction?.(tx, id);
        return { id, uuid, nodeId };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The allocation became some server's primary meanwhile, the external id was taken, or (rarely) the
      // 8-character identifier repeats: look again.
      if (draft.externalId !== null && (await serverWithExternalId(db, draft.externalId))) {
        throw new ExternalIdTaken();
      }
      const holder = await findAllocationHolder(db, allocationIds[0]);
      if (!holder || holder.server_id !== null) throw new AllocationTaken();
      if (attempt >= 3) throw error;
    }
  }
}
