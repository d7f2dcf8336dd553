import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { findNodeRecord } from '@aerie/panel/features/nodes/node-lookups';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { Log } from '@aerie/panel/logging/log';
import { MAX_FAILURE_LENGTH } from './transfer-messages';
import { newAllocationsOf, type TransferRecord } from './transfer-record';
import { endTransfer, freeHeldAllocations } from './transfers.repository';

/** What the transfer services share. */
export interface TransferDeps {
  db: Db;
  daemon: DaemonClient;
  secretBox: SecretBox;
  clock: () => Date;
  log: Log;
  /** The panel's APP_URL: the issuer of the transfer token. */
  issuer: string;
}

/** A reason as stored: trimmed, at most MAX_FAILURE_LENGTH characters. */
export const clipReason = (reason: string) => reason.trim().slice(0, MAX_FAILURE_LENGTH).trim();

/**
 * Ends a running transfer as failed, in one transaction: the reason recorded and the allocations it held on the
 * target freed; the server stays where it was. False when it had already ended (nothing changed).
 */
export async function failTransfer(
  db: Db,
  transfer: TransferRecord,
  reason: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute((tx) => failTransferIn(tx, transfer, reason, now));
}

/** The same inside the caller's transaction (an administrator's cancel records its audit entry with it). */
export async function failTransferIn(
  tx: Tx,
  transfer: TransferRecord,
  reason: string,
  now: Date,
): Promise<boolean> {
  if (!(await endTransfer(tx, transfer.id, { successful: false, failure: clipReason(reason) }, now))) {
    return false;
  }
  if (transfer.newNode !== null) {
    await freeHeldAllocations(tx, transfer.serverId, transfer.newNode, newAllocationsOf(transfer), now);
  }
  return true;
}

/**
 * Tells the chosen ends of a transfer the panel ended to stop it (source: `DELETE /api/servers/{uuid}/transfer`,
 * target: `DELETE /api/transfers/{uuid}`). Never throws: a node that is away, or that runs no such transfer any
 * more (409), has nothing left to stop; each refusal is logged.
 */
export async function tellNodesToStop(
  deps: Pick<TransferDeps, 'db' | 'daemon' | 'log'>,
  transfer: TransferRecord,
  uuid: string,
  ends: { source: boolean; target: boolean },
): Promise<void> {
  const calls: Promise<void>[] = [];
  if (ends.source && transfer.oldNode !== null) {
    const nodeId = transfer.oldNode;
    calls.push(stop(deps, nodeId, uuid, 'source', (node) => deps.daemon.cancelTransfer(node, uuid)));
  }
  if (ends.target && transfer.newNode !== null) {
    const nodeId = transfer.newNode;
    calls.push(stop(deps, nodeId, uuid, 'target', (node) => deps.daemon.cancelIncomingTransfer(node, uuid)));
  }
  await Promise.all(calls);
}

async function stop(
  deps: Pick<TransferDeps, 'db' | 'log'>,
  nodeId: number,
  uuid: string,
  side: string,
  call: (node: NodeRecord) => Promise<void>,
): Promise<void> {
  try {
    const node = await findNodeRecord(deps.db, nodeId);
    if (node) await call(node);
  } catch (error) {
    deps.log.warn({ err: error, server: uuid }, `Could not tell the transfer's ${side} node to stop it`);
  }
}
