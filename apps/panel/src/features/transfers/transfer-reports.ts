import { DaemonResponseError } from '@aerie/panel/daemon-client/daemon-client';
import { findNodeRecord } from '@aerie/panel/features/nodes/node-lookups';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { updateServerRow } from '@aerie/panel/features/servers/servers.repository';
import { forbidden, HttpError, notFound } from '@aerie/panel/http/errors';
import { clipReason, failTransfer, type TransferDeps, tellNodesToStop } from './transfer-endings';
import { type TransferSide, transferMessages } from './transfer-messages';
import type { TransferRecord } from './transfer-record';
import {
  allRunningTransfers,
  endTransfer,
  freeAllocationsLeftBehind,
  hadTransferWithNode,
  runningTransferOf,
  runningTransfersOfNode,
  serverByUuid,
} from './transfers.repository';

/** How often running transfers are checked against their source (sweep). */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * How transfers end without an administrator: the daemons' reports (`/api/remote/servers/{uuid}/transfer/*`), a
 * daemon that booted (`servers/reset`: whatever it was sending or receiving died with it) and a sweep asking the
 * sources about transfers whose end went unheard (at the panel's start and every minute), so no transfer stays
 * running forever. Each ending happens once: a report on a transfer that
 * already ended changes nothing. The daemon calls that follow an ending are made in the background, never failing
 * the report that caused them.
 */
export class TransferReports {
  readonly #background = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | null = null;
  #sweeping: Promise<number> | null = null;

  constructor(private readonly deps: TransferDeps) {}

  /**
   * The target has the server: in one transaction it moves there (node and primary allocation), the allocations it
   * held on the source are freed, and the transfer ends successful; then the source is told to delete its copy.
   * @throws HttpError 403 from the source node, 404 from a node the server never moved from or to
   */
  async succeeded(node: NodeRecord, uuid: string): Promise<void> {
    const transfer = await this.#reportedBy(node, uuid);
    if (!transfer) {
      // Already moved here (a repeated report): fine. Ended as failed or cancelled: the target must drop its copy.
      if ((await serverByUuid(this.deps.db, uuid))?.node_id === node.id) return;
      throw new HttpError(409, 'ConflictHttpException', transferMessages.alreadyEnded);
    }
    const { newNode, newAllocation, oldNode, serverId } = transfer;
    if (newNode !== node.id || newAllocation === null) throw forbidden(transferMessages.onlyTarget);
    const now = this.deps.clock();
    const moved = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await endTransfer(tx, transfer.id, { successful: true, failure: null }, now))) return false;
      await updateServerRow(tx, serverId, {
        node_id: newNode,
        allocation_id: newAllocation,
        updated_at: now,
      });
      if (oldNode !== null) await freeAllocationsLeftBehind(tx, serverId, oldNode, now);
      return true;
    });
    if (moved && oldNode !== null) this.#inBackground(this.#deleteFromSource(oldNode, uuid));
  }

  /**
   * Either end failed (its reason, else which end it was, recorded): the allocations held on the target are freed,
   * the server stays where it is, and the other end is told to stop.
   * @throws HttpError 404 from a node the server never moved from or to
   */
  async failed(node: NodeRecord, uuid: string, reason: string | null | undefined): Promise<void> {
    const transfer = await this.#reportedBy(node, uuid);
    if (!transfer) return;
    const side: TransferSide = transfer.oldNode === node.id ? 'source' : 'target';
    const why = clipReason(reason ?? '') || transferMessages.reported(side);
    if (!(await failTransfer(this.deps.db, transfer, why, this.deps.clock()))) return;
    const other = { source: side === 'target', target: side === 'source' };
    this.#inBackground(tellNodesToStop(this.deps, transfer, uuid, other));
  }

  /**
   * The node's daemon booted: every transfer it was sending or receiving is failed, and the other end told to stop.
   * @returns how many it ended
   */
  async nodeRestarted(nodeId: number): Promise<number> {
    let ended = 0;
    for (const { transfer, uuid } of await runningTransfersOfNode(this.deps.db, nodeId)) {
      const side: TransferSide = transfer.oldNode === nodeId ? 'source' : 'target';
      const reason = transferMessages.nodeRestarted(side);
      if (!(await failTransfer(this.deps.db, transfer, reason, this.deps.clock()))) continue;
      ended++;
      this.deps.log.warn({ server: uuid }, `Transfer failed: ${reason}`);
      const other = { source: side === 'target', target: side === 'source' };
      this.#inBackground(tellNodesToStop(this.deps, transfer, uuid, other));
    }
    return ended;
  }

  /**
   * Transfers whose end the panel never heard (it was down when a daemon reported, or a report was lost): each
   * running one's source is asked, and one whose source answers that it no longer sends the server (or no longer
   * has it) is failed and the target told to stop. A source that does not answer is left to its own `servers/reset`;
   * one that does not say (Wings) is left running. Run at start and every minute: transfers other panels are watching,
   * still under way, are never touched.
   * @returns how many it ended
   */
  async sweep(): Promise<number> {
    let ended = 0;
    for (const { transfer, uuid } of await allRunningTransfers(this.deps.db)) {
      if (transfer.oldNode === null || !(await this.#sourceGaveUp(transfer.oldNode, uuid))) continue;
      const reason = transferMessages.abandoned;
      if (!(await failTransfer(this.deps.db, transfer, reason, this.deps.clock()))) continue;
      ended++;
      this.deps.log.warn({ server: uuid }, `Transfer failed: ${reason}`);
      this.#inBackground(tellNodesToStop(this.deps, transfer, uuid, { source: false, target: true }));
    }
    return ended;
  }

  /** Sweeps every minute until stopped (cli/serve.ts, with the app). */
  startSweeping(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#sweeping) return;
      this.#sweeping = this.sweep()
        .catch((error: unknown) => {
          this.deps.log.error({ err: error }, 'Could not check the running transfers');
          return 0;
        })
        .finally(() => {
          this.#sweeping = null;
        });
    }, intervalMs);
    this.#timer.unref();
  }

  async stopSweeping(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#sweeping;
  }

  async #sourceGaveUp(nodeId: number, uuid: string): Promise<boolean> {
    const node = await findNodeRecord(this.deps.db, nodeId);
    if (!node) return false;
    try {
      return (await this.deps.daemon.forServer(node, uuid).details()).is_transferring === false;
    } catch (error) {
      return error instanceof DaemonResponseError && error.status === 404;
    }
  }

  /** Resolves once the daemon calls started in the background have ended (tests wait on it). */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }

  /**
   * The running transfer a node reports on, when it is one of its ends; null when the report is about a transfer
   * that already ended (nothing to do).
   */
  async #reportedBy(node: NodeRecord, uuid: string): Promise<TransferRecord | null> {
    const server = await serverByUuid(this.deps.db, uuid);
    if (!server) throw notFound();
    const transfer = await runningTransferOf(this.deps.db, server.id);
    if (transfer && (transfer.oldNode === node.id || transfer.newNode === node.id)) return transfer;
    if (await hadTransferWithNode(this.deps.db, server.id, node.id)) return null;
    throw notFound();
  }

  /** `DELETE /api/servers/{uuid}` on the node the server left: its copy there goes (Wings' `completed`, `deleted`). */
  async #deleteFromSource(nodeId: number, uuid: string): Promise<void> {
    try {
      const node = await findNodeRecord(this.deps.db, nodeId);
      if (node) await this.deps.daemon.forServer(node, uuid).destroy();
    } catch (error) {
      this.deps.log.warn(
        { err: error, server: uuid },
        'Could not delete a transferred server on its old node',
      );
    }
  }

  #inBackground(work: Promise<void>): void {
    this.#background.add(work);
    void work.finally(() => this.#background.delete(work));
  }
}
