import { DaemonResponseError, DaemonUnreachableError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonMessages } from '@aerie/panel/daemon-client/daemon-http-error';
import { type AdminServer, findAdminServer } from '@aerie/panel/features/admin-servers/admin-server';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { committedOn, fits, lockNode } from '@aerie/panel/features/nodes/node-capacity';
import { findNodeRecord } from '@aerie/panel/features/nodes/node-lookups';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';
import { claimFreeAllocations } from '@aerie/panel/features/nodes/server-allocations';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import type { DaemonTransferRequest } from '@aerie/shared/transfers/transfers-daemon-wire';
import type { TransferBody } from './transfer-body';
import { fieldFailed, planTransfer, type TransferPlan, transferStateConflict } from './transfer-checks';
import { failTransfer, failTransferIn, type TransferDeps, tellNodesToStop } from './transfer-endings';
import { transferMessages } from './transfer-messages';
import type { TransferRecord } from './transfer-record';
import { signTransferToken } from './transfer-token';
import {
  additionalAllocationIds,
  insertTransfer,
  lockServerForTransfer,
  runningTransferOf,
} from './transfers.repository';

/** The server as the transfer routes find it. */
export interface TransferredServer {
  id: number;
  uuid: string;
  node_id: number;
  status: string | null;
}

/**
 * An administrator's transfers (Pterodactyl's ServerTransferController): one is started by reserving the target's
 * allocations and recording it in one transaction under the server's and the target node's locks, then handing
 * it to the source daemon, which streams the files to the target; the daemons report its end to
 * `/api/remote/servers/{uuid}/transfer/*` (transfer-reports.ts). The audit entry (about the server) is recorded in
 * the transaction that records the transfer or its cancellation; a start the source then refuses keeps its entry.
 */
export class TransfersService {
  constructor(private readonly deps: TransferDeps) {}

  /** @throws HttpError 409 when the server cannot be transferred now (the route's state check, before validation) */
  async assertTransferable(server: TransferredServer): Promise<void> {
    const running = await runningTransferOf(this.deps.db, server.id);
    const conflict = transferStateConflict(server.status, running !== null);
    if (conflict) throw conflict;
  }

  /**
   * Starts the transfer: 422 for a node or allocation that will not do, or no room; 409 when another request got
   * there first. When the source daemon refuses it or cannot be reached, the transfer ends failed, its allocations
   * are freed and the daemon's error is returned (409 when it is busy, else 502).
   */
  async start(server: TransferredServer, body: TransferBody, audit: Audit<AdminServer>): Promise<void> {
    const plan = await planTransfer(this.deps.db, server, body);
    const transfer = await this.#reserve(server.id, plan, audit);
    const source = await findNodeRecord(this.deps.db, server.node_id);
    try {
      if (!source) throw new Error(`The node of server ${server.uuid} is gone`);
      await this.deps.daemon.startTransfer(
        source,
        server.uuid,
        await this.#request(server.uuid, plan.target),
      );
    } catch (error) {
      await failTransfer(this.deps.db, transfer, this.#refusal(error), this.deps.clock());
      throw this.#startError(error);
    }
  }

  /**
   * Cancels the running transfer: recorded failed ("cancelled by an administrator") with its allocations freed
   * first, so the daemons' own failure reports that follow change nothing; then the source and the target are told.
   * @throws HttpError 409 when none runs
   */
  async cancel(server: TransferredServer, audit: Audit<AdminServer>): Promise<void> {
    const transfer = await runningTransferOf(this.deps.db, server.id);
    if (!transfer || !(await this.#endCancelled(transfer, audit))) {
      throw new HttpError(409, 'ConflictHttpException', transferMessages.notTransferring);
    }
    await tellNodesToStop(this.deps, transfer, server.uuid, { source: true, target: true });
  }

  /** Ends the transfer as cancelled with its audit entry; false when it had already ended (nothing recorded). */
  #endCancelled(transfer: TransferRecord, audit: Audit<AdminServer>): Promise<boolean> {
    const { serverId } = transfer;
    return this.deps.db.transaction().execute(async (tx) => {
      const before = await findAdminServer(tx, { id: serverId });
      if (!(await failTransferIn(tx, transfer, transferMessages.cancelled, this.deps.clock()))) return false;
      await audit(tx, { subjectId: serverId, before, after: await findAdminServer(tx, { id: serverId }) });
      return true;
    });
  }

  /** Reserves the allocations and records the transfer with its audit entry, or changes nothing. */
  async #reserve(serverId: number, plan: TransferPlan, audit: Audit<AdminServer>): Promise<TransferRecord> {
    const now = this.deps.clock();
    const { target, allocationIds } = plan;
    return this.deps.db.transaction().execute(async (tx) => {
      // Both locks before any read: on MySQL a transaction's reads see the data as of its first plain read.
      const server = await lockServerForTransfer(tx, serverId);
      if (!server) throw notFound();
      const capacity = await lockNode(tx, target.id);
      const conflict = transferStateConflict(server.status, (await runningTransferOf(tx, serverId)) !== null);
      if (conflict) throw conflict;
      const before = await findAdminServer(tx, { id: serverId });
      if (server.node_id === target.id) throw fieldFailed('node_id', transferMessages.sameNode);
      const size = { memory: server.memory, disk: server.disk };
      if (!capacity || !fits(capacity, await committedOn(tx, target.id, serverId), size)) {
        throw fieldFailed('node_id', transferMessages.notViable);
      }
      // Held from now on, so nothing else is given them while the files move (Pterodactyl does the same).
      if (
        (await claimFreeAllocations(tx, serverId, target.id, allocationIds, now)) !== allocationIds.length
      ) {
        throw fieldFailed('allocation_id', transferMessages.allocationTaken);
      }
      const [newAllocation, ...newAdditional] = allocationIds;
      await insertTransfer(
        tx,
        {
          serverId,
          oldNode: server.node_id,
          newNode: target.id,
          oldAllocation: server.allocation_id,
          newAllocation,
          oldAdditional: await additionalAllocationIds(tx, serverId, server.node_id, server.allocation_id),
          newAdditional,
        },
        now,
      );
      const transfer = await runningTransferOf(tx, serverId);
      if (!transfer) throw new Error(`The transfer of server ${server.uuid} is gone right after its insert`);
      await audit(tx, {
        subjectId: serverId,
        before,
        after: await findAdminServer(tx, { id: serverId }),
        // The server's own fields change only when the move ends: say where it is going.
        details: {
          transfer: {
            node_id: target.id,
            allocation_id: newAllocation,
            allocation_additional: newAdditional,
          },
        },
      });
      return transfer;
    });
  }

  /** What the source is sent: the target's URL and a token signed with the target's own node token. */
  async #request(uuid: string, target: NodeRecord): Promise<DaemonTransferRequest> {
    const token = await signTransferToken({
      target,
      targetToken: this.deps.secretBox.open(target.daemonToken),
      serverUuid: uuid,
      issuer: this.deps.issuer,
      now: this.deps.clock(),
    });
    return {
      url: `${nodeAddress(target)}/api/transfers`,
      token: `Bearer ${token}`,
      server: { uuid, start_on_completion: false },
    };
  }

  #refusal(error: unknown): string {
    if (error instanceof DaemonResponseError) return transferMessages.sourceRefused(error.message);
    return error instanceof DaemonUnreachableError
      ? transferMessages.sourceUnreachable
      : transferMessages.notStarted;
  }

  /** The daemon's refusal as the API answers it: 409 when the source is busy, 502 otherwise. */
  #startError(error: unknown): unknown {
    if (error instanceof DaemonResponseError) {
      const status = error.status === 409 ? 409 : 502;
      return new HttpError(status, 'DaemonConnectionException', daemonMessages.remoteError(error.message));
    }
    if (error instanceof DaemonUnreachableError) {
      return new HttpError(502, 'DaemonConnectionException', daemonMessages.unreachable);
    }
    return error;
  }
}
