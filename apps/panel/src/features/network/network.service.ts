import { randomInt } from 'node:crypto';
import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ActivityLog, serverActivity } from '@aerie/panel/features/activity/activity-log';
import type { PanelSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import { syncServerQuietly } from '@aerie/panel/features/servers/daemon-sync';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import type { AllocationRecord } from '@aerie/panel/features/servers/server-relations';
import { updateServerRow } from '@aerie/panel/features/servers/servers.repository';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { networkMessages } from '@aerie/shared/network/network-bodies';
import {
  allocationIp,
  allocationsInRange,
  claimAllocation,
  countServerAllocations,
  findServerAllocation,
  insertServerAllocation,
  listServerAllocations,
  lockServerRow,
  primaryAllocationId,
  releaseServerAllocation,
  updateAllocationNotes,
} from './network.repository';

/** Another server took the port between the read and the write: the whole pick runs again. */
const PICK_ATTEMPTS = 5;

class PortTaken extends Error {}

/**
 * The Network page's verbs (reference §7.2 "Network allocations"). Every change that counts or moves the server's
 * allocations runs with the server's row locked, so parallel requests cannot pass the limit or delete the primary
 * that another request is choosing, and is logged in the same transaction (`server:allocation.*`); the daemon is
 * told afterwards so its next start binds what was saved.
 */
export class NetworkService {
  constructor(
    private readonly deps: {
      db: Db;
      settings: PanelSettings;
      daemon: DaemonClient;
      clock: () => Date;
      log: Log;
      activity: ActivityLog;
    },
  ) {}

  list(access: ServerAccess): Promise<AllocationRecord[]> {
    return listServerAllocations(this.deps.db, access.server.id);
  }

  /**
   * Gives the server another allocation on its primary address: a free one the node already has inside the range
   * the admin allows, else a new one on a free port of that range, picked at random as upstream does.
   * @throws HttpError 400 at the server's allocation limit (null or 0 allows none), when users may not create
   *   allocations, or when the range has no free port
   */
  async create(access: ServerAccess): Promise<AllocationRecord> {
    const range = await this.deps.settings.clientAllocations();
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await this.deps.db.transaction().execute(async (tx) => {
          const row = await lockServerRow(tx, access.server.id);
          const limit = row.allocation_limit ?? 0;
          if ((await countServerAllocations(tx, access.server.id)) >= limit) {
            throw displayError(networkMessages.limitReached);
          }
          if (!range.enabled) {
            throw new HttpError(
              400,
              'AutoAllocationNotEnabledException',
              networkMessages.autoAllocationDisabled,
            );
          }
          const primaryIp = await allocationIp(tx, row.allocation_id);
          const taken = await allocationsInRange(tx, {
            nodeId: row.node_id,
            ip: primaryIp,
            from: range.rangeStart,
            to: range.rangeEnd,
          });
          const now = this.deps.clock();
          const free = shuffle(taken.filter((allocation) => allocation.serverId === null));
          for (const allocation of free) {
            if (await claimAllocation(tx, allocation.id, access.server.id, now)) {
              await this.#record(tx, access, 'server:allocation.create', { ip: primaryIp, ...allocation });
              return allocation.id;
            }
          }
          const port = freePort(range.rangeStart, range.rangeEnd, new Set(taken.map((entry) => entry.port)));
          if (port === null) {
            throw new HttpError(400, 'NoAutoAllocationSpaceAvailableException', networkMessages.noSpace);
          }
          let id: number;
          try {
            id = await insertServerAllocation(
              tx,
              { nodeId: row.node_id, ip: primaryIp, port, serverId: access.server.id },
              now,
            );
          } catch (error) {
            if (isUniqueViolation(error)) throw new PortTaken();
            throw error;
          }
          await this.#record(tx, access, 'server:allocation.create', { ip: primaryIp, port });
          return id;
        });
        await syncServerQuietly(this.deps, access.node, access.server.uuid);
        return (await findServerAllocation(
          this.deps.db,
          access.server.id,
          String(created),
        )) as AllocationRecord;
      } catch (error) {
        if (!(error instanceof PortTaken) || attempt >= PICK_ATTEMPTS) {
          if (error instanceof PortTaken) {
            throw new HttpError(400, 'NoAutoAllocationSpaceAvailableException', networkMessages.noSpace);
          }
          throw error;
        }
      }
    }
  }

  /** Sets or clears (null or "") the allocation's notes; a change is logged ({allocation, old, new}). */
  async updateNotes(
    access: ServerAccess,
    allocation: AllocationRecord,
    notes: string | null | undefined,
  ): Promise<AllocationRecord> {
    const value = notes ? notes : null;
    await this.deps.db.transaction().execute(async (tx) => {
      await updateAllocationNotes(tx, access.server.id, allocation.id, value, this.deps.clock());
      if (value !== allocation.notes) {
        await this.#record(tx, access, 'server:allocation.notes', allocation, {
          old: allocation.notes,
          new: value,
        });
      }
    });
    return { ...allocation, notes: value };
  }

  /** Makes the allocation the server's primary (the address its game binds at the next start). */
  async setPrimary(access: ServerAccess, allocation: AllocationRecord): Promise<AllocationRecord> {
    await this.deps.db.transaction().execute(async (tx) => {
      await lockServerRow(tx, access.server.id);
      // Deleted by a request that held the lock before this one.
      if (!(await findServerAllocation(tx, access.server.id, String(allocation.id)))) {
        throw notFound();
      }
      await updateServerRow(tx, access.server.id, {
        allocation_id: allocation.id,
        updated_at: this.deps.clock(),
      });
      await this.#record(tx, access, 'server:allocation.primary', allocation);
    });
    await syncServerQuietly(this.deps, access.node, access.server.uuid);
    return allocation;
  }

  /**
   * Gives the allocation back to the node (its notes cleared); the row stays for the next server.
   * @throws HttpError 400 when the server has no allocation limit, or the allocation is its primary
   */
  async remove(access: ServerAccess, allocation: AllocationRecord): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const row = await lockServerRow(tx, access.server.id);
      if (!row.allocation_limit) throw displayError(networkMessages.deleteWithoutLimit);
      if (row.allocation_id === allocation.id) throw displayError(networkMessages.deletePrimary);
      await releaseServerAllocation(tx, access.server.id, allocation.id, this.deps.clock());
      await this.#record(tx, access, 'server:allocation.delete', allocation);
    });
    await syncServerQuietly(this.deps, access.node, access.server.uuid);
  }

  /** Logs a change of an allocation, named `ip:port` as upstream names it. */
  #record(
    tx: Tx,
    access: ServerAccess,
    event:
      | 'server:allocation.create'
      | 'server:allocation.notes'
      | 'server:allocation.primary'
      | 'server:allocation.delete',
    allocation: { ip: string; port: number },
    properties: Record<string, unknown> = {},
  ): Promise<number> {
    return this.deps.activity.record(tx, {
      event,
      ...serverActivity(access),
      properties: { allocation: `${allocation.ip}:${allocation.port}`, ...properties },
    });
  }

  /** The server's primary allocation id as stored now (the access record may predate a change). */
  primaryId(serverId: number): Promise<number> {
    return primaryAllocationId(this.deps.db, serverId);
  }
}

/** A random port of [from, to] not in `taken`, or null when there is none. */
function freePort(from: number, to: number, taken: ReadonlySet<number>): number | null {
  if (from > to) return null;
  const free: number[] = [];
  for (let port = from; port <= to; port++) if (!taken.has(port)) free.push(port);
  return free.length === 0 ? null : (free[randomInt(free.length)] as number);
}

function shuffle<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}
