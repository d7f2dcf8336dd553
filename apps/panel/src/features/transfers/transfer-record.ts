import { readBool, readDate } from '@aerie/panel/db/dialect';
import type { ServerTransfersTable } from '@aerie/panel/db/schema-servers';
import type { Selectable } from 'kysely';

/** A server_transfers row as the panel reads it. */
export interface TransferRecord {
  id: number;
  serverId: number;
  /** null while it runs. */
  successful: boolean | null;
  /** null in rows older than migration 0014, or once the node was deleted. */
  oldNode: number | null;
  newNode: number | null;
  oldAllocation: number | null;
  newAllocation: number | null;
  oldAdditionalAllocations: number[] | null;
  newAdditionalAllocations: number[] | null;
  archived: boolean;
  failure: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A stored JSON array of allocation ids; null when absent or not such an array. */
const idList = (text: string | null): number[] | null => {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(Number).filter(Number.isSafeInteger) : null;
  } catch {
    return null;
  }
};

export function toTransferRecord(row: Selectable<ServerTransfersTable>): TransferRecord {
  return {
    id: row.id,
    serverId: row.server_id,
    successful: row.successful === null ? null : readBool(row.successful),
    oldNode: row.old_node,
    newNode: row.new_node,
    oldAllocation: row.old_allocation,
    newAllocation: row.new_allocation,
    oldAdditionalAllocations: idList(row.old_additional_allocations),
    newAdditionalAllocations: idList(row.new_additional_allocations),
    archived: readBool(row.archived),
    failure: row.failure,
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}

/** Every allocation a transfer holds on its target (the primary first). */
export const newAllocationsOf = (transfer: TransferRecord): number[] => [
  ...(transfer.newAllocation === null ? [] : [transfer.newAllocation]),
  ...(transfer.newAdditionalAllocations ?? []),
];
