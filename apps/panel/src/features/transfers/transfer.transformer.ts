import { toWireDate } from '@aerie/panel/db/dialect';
import type { Relation, Transformer } from '@aerie/panel/http/application/transformer';
import type { TransferRecord } from './transfer-record';
import { latestTransfersOf } from './transfers.repository';

/** `server_transfer`: a transfer as Pterodactyl's model holds it, plus Aerie's `failure`. */
export const transferTransformer: Transformer<TransferRecord> = {
  object: 'server_transfer',
  attributes: (transfer) => ({
    id: transfer.id,
    server_id: transfer.serverId,
    successful: transfer.successful,
    old_node: transfer.oldNode,
    new_node: transfer.newNode,
    old_allocation: transfer.oldAllocation,
    new_allocation: transfer.newAllocation,
    old_additional_allocations: transfer.oldAdditionalAllocations,
    new_additional_allocations: transfer.newAdditionalAllocations,
    archived: transfer.archived,
    failure: transfer.failure,
    created_at: toWireDate(transfer.createdAt),
    updated_at: toWireDate(transfer.updatedAt),
  }),
};

/**
 * A server's `transfer` include (opt-in; upstream declares it without rendering it): its latest transfer, running or
 * ended, or `null_resource` when it never had one.
 */
export function latestTransferRelation<T>(serverIdOf: (server: T) => number): Relation<T> {
  return {
    gate: 'servers',
    renders: transferTransformer,
    async load(db, servers) {
      const latest = await latestTransfersOf(db, servers.map(serverIdOf));
      return new Map(servers.map((server) => [server, latest.get(serverIdOf(server)) ?? null]));
    },
  };
}
