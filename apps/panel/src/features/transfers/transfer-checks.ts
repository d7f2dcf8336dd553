import type { Db } from '@aerie/panel/db/database';
import { findNodeRecord } from '@aerie/panel/features/nodes/node-lookups';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { HttpError, validationFailed } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { TransferBody } from './transfer-body';
import { transferMessages } from './transfer-messages';
import { allocationsByIds } from './transfers.repository';

/**
 * The 409 of a server that cannot be transferred now (Pterodactyl's validateTransferState): not installed yet
 * (installing, install_failed), restoring a backup, or already being transferred. A suspended server may move.
 */
export function transferStateConflict(status: string | null, transferring: boolean): HttpError | null {
  const detail =
    status === 'installing' || status === 'install_failed'
      ? serverMessages.notInstalled
      : status === 'restoring_backup'
        ? serverMessages.restoringBackup
        : transferring
          ? serverMessages.transferring
          : null;
  return detail === null ? null : new HttpError(409, 'ServerStateConflictException', detail);
}

/** A 422 on one field with the panel's own words. */
export const fieldFailed = (field: string, detail: string) =>
  validationFailed(toValidationErrors([{ path: field.split('.'), message: detail }]));

/** Where a transfer goes: the target node and the allocations it takes there, the primary first. */
export interface TransferPlan {
  target: NodeRecord;
  allocationIds: [number, ...number[]];
}

/**
 * The request's checks against the database, before anything is reserved (each a 422): the node exists, is not
 * the server's own and is not under maintenance; each allocation exists on it and is free. The capacity and the
 * allocations are checked again under the node's lock when they are reserved.
 */
export async function planTransfer(
  db: Db,
  server: { node_id: number },
  body: TransferBody,
): Promise<TransferPlan> {
  const target = await findNodeRecord(db, body.node_id);
  if (!target) throw fieldRuleFailed('node_id', 'exists');
  if (target.id === server.node_id) throw fieldFailed('node_id', transferMessages.sameNode);
  if (target.maintenanceMode) throw fieldFailed('node_id', transferMessages.nodeMaintenance);
  // Each allocation once (a repeated one, or the primary again, is the same allocation), named by its field.
  const fields = new Map<number, string>([[body.allocation_id, 'allocation_id']]);
  (body.allocation_additional ?? []).forEach((id, index) => {
    if (!fields.has(id)) fields.set(id, `allocation_additional.${index}`);
  });
  const found = new Map((await allocationsByIds(db, [...fields.keys()])).map((row) => [row.id, row]));
  for (const [id, field] of fields) {
    const allocation = found.get(id);
    if (!allocation || allocation.node_id !== target.id) throw fieldRuleFailed(field, 'exists');
    if (allocation.server_id !== null) throw fieldFailed(field, transferMessages.allocationTaken);
  }
  const [, ...additional] = fields.keys();
  return { target, allocationIds: [body.allocation_id, ...additional] };
}
