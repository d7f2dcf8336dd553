import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { findEggForServer, listEggVariables } from '@aerie/panel/features/eggs/egg-lookups';
import { committedOn, fits, lockNode } from '@aerie/panel/features/nodes/node-capacity';
import {
  claimFreeAllocations,
  findAllocationHolder,
  freeAllocationIdsOnNode,
  releaseAllocations,
} from '@aerie/panel/features/nodes/server-allocations';
import { validateEnvironment } from '@aerie/panel/features/servers/server-variables';
import { storeVariables } from '@aerie/panel/features/servers/server-variables.repository';
import {
  serverWithPrimaryAllocation,
  transferringServerIds,
  updateServerRow,
} from '@aerie/panel/features/servers/servers.repository';
import { findUserUuid, userExists } from '@aerie/panel/features/users/user-lookups';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import {
  serverAttributeNames as names,
  type ServerBuildBody,
  type ServerStartupBody,
  serverApplicationMessages,
} from '@aerie/shared/servers/server-application-bodies';
import { type AdminServer, findAdminServer } from './admin-server';
import { assertExternalIdFree } from './server-checks';
import {
  type AdminServerDeps,
  applicationDaemonError,
  daemonTarget,
  onDaemon,
  syncQuietly,
} from './server-daemon';

/**
 * The Application API's changes to an existing server (reference application API §3.5): details, build, startup,
 * suspension and reinstall. Each is written first, with its audit entry in the same transaction, then the daemon
 * is told. When the daemon refuses a suspension or reinstall, the status is put back by a write of its own, and the
 * change's entry stays.
 */
export class ServerUpdateService {
  constructor(private readonly deps: AdminServerDeps) {}

  /** PATCH details: every field written from the request (an omitted external_id clears it, as upstream). */
  async updateDetails(
    server: AdminServer,
    input: { external_id?: string | null; name: string; user: number; description?: string | null },
    audit: Audit<AdminServer>,
  ): Promise<AdminServer> {
    const { db } = this.deps;
    if (!(await userExists(db, input.user))) throw fieldRuleFailed('user', 'exists', names);
    await assertExternalIdFree(db, input.external_id ?? null, server.row.id);
    const id = server.row.id;
    try {
      await db.transaction().execute(async (tx) => {
        const before = await this.snapshot(tx, id);
        await updateServerRow(tx, id, {
          external_id: input.external_id ?? null,
          name: input.name,
          owner_id: input.user,
          description: input.description ?? '',
          updated_at: this.deps.clock(),
        });
        await audit(tx, { subjectId: id, before, after: await this.snapshot(tx, id) });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed('external_id', 'unique', names);
      throw error;
    }
    if (input.user !== server.row.owner_id) {
      // The previous owner's live access ends: their console sockets and signed URLs on this server.
      const previous = await findUserUuid(db, server.row.owner_id);
      if (previous) {
        await onDaemon(this.deps, daemonTarget(server), (daemon) =>
          daemon.deny({ jtis: [], user_uuids: [previous] }),
        ).catch((error: unknown) =>
          this.deps.log.warn(
            { err: error },
            `Could not end the previous owner's access to ${server.row.uuid}`,
          ),
        );
      }
    }
    await syncQuietly(this.deps, server);
    return this.reread(server);
  }

  /**
   * PATCH build (upstream's BuildModificationService, in one transaction): allocations added (free ones on the
   * server's node only) and removed, the primary moved to a fallback when removed, limits written, and the node's
   * capacity checked for the new memory and disk.
   */
  async updateBuild(
    server: AdminServer,
    input: ServerBuildBody,
    audit: Audit<AdminServer>,
  ): Promise<AdminServer> {
    const { db } = this.deps;
    if (!(await findAllocationHolder(db, input.allocation)))
      throw fieldRuleFailed('allocation', 'exists', names);
    if (await serverWithPrimaryAllocation(db, input.allocation, server.row.id)) {
      throw fieldRuleFailed('allocation', 'unique', names);
    }
    const limits = input.limits ?? {
      memory: input.memory ?? 0,
      swap: input.swap ?? 0,
      io: input.io ?? 500,
      cpu: input.cpu ?? 0,
      disk: input.disk ?? 0,
      threads: input.threads,
    };
    const now = this.deps.clock();
    const { id: serverId, node_id: nodeId } = server.row;
    await db.transaction().execute(async (tx) => {
      const node = await lockNode(tx, nodeId);
      // Read after the lock: on MySQL the transaction's reads see the data as of its first plain read.
      const before = await this.snapshot(tx, serverId);
      const add = [...new Set(input.add_allocations ?? [])];
      const remove = [...new Set(input.remove_allocations ?? [])].filter((id) => !add.includes(id));
      const free = await freeAllocationIdsOnNode(tx, nodeId, add);
      await claimFreeAllocations(tx, serverId, nodeId, free, now, { clearNotes: true });
      const fallback = free[0] ?? null;
      let primaryId = input.allocation;
      if ((input.remove_allocations ?? []).includes(primaryId) && !add.includes(primaryId)) {
        if (fallback === null) throw displayError(serverApplicationMessages.noFallbackAllocation);
        primaryId = fallback;
      }
      await releaseAllocations(
        tx,
        serverId,
        nodeId,
        remove.filter((id) => id !== primaryId),
        now,
      );
      const owned = await findAllocationHolder(tx, primaryId);
      if (owned?.server_id !== serverId) throw displayError(serverApplicationMessages.defaultNotAssigned);
      if (node && (limits.memory > server.row.memory || limits.disk > server.row.disk)) {
        const committed = await committedOn(tx, nodeId, serverId);
        if (!fits(node, committed, { memory: limits.memory, disk: limits.disk })) {
          throw displayError(serverApplicationMessages.nodeFull);
        }
      }
      await updateServerRow(tx, serverId, {
        ...(input.oom_disabled === undefined ? {} : { oom_disabled: input.oom_disabled }),
        memory: limits.memory,
        swap: limits.swap,
        io: limits.io,
        cpu: limits.cpu,
        disk: limits.disk,
        ...(limits.threads === undefined ? {} : { threads: limits.threads }),
        allocation_id: primaryId,
        database_limit: input.feature_limits.databases ?? null,
        allocation_limit: input.feature_limits.allocations ?? null,
        backup_limit: input.feature_limits.backups ?? 0,
        updated_at: now,
      });
      await audit(tx, { subjectId: serverId, before, after: await this.snapshot(tx, serverId) });
    });
    await syncQuietly(this.deps, server);
    return this.reread(server);
  }

  /**
   * PATCH startup: with a non-empty environment every variable of the (new) egg is validated and written (absent
   * ones blanked, as upstream); the egg, startup, image and skip_scripts are saved. Unlike upstream the daemon is
   * told at once, so the next start uses them.
   */
  async updateStartup(
    server: AdminServer,
    input: ServerStartupBody,
    audit: Audit<AdminServer>,
  ): Promise<AdminServer> {
    const { db } = this.deps;
    const egg = await findEggForServer(db, input.egg);
    if (!egg) throw fieldRuleFailed('egg', 'exists', names);
    const environment = input.environment as Record<string, unknown>;
    const values =
      Object.keys(environment).length > 0
        ? validateEnvironment(await listEggVariables(db, [egg.id]), environment)
        : null;
    const now = this.deps.clock();
    const id = server.row.id;
    await db.transaction().execute(async (tx) => {
      const before = await this.snapshot(tx, id);
      if (values) await storeVariables(tx, id, values, now);
      await updateServerRow(tx, id, {
        egg_id: egg.id,
        nest_id: egg.nestId,
        startup: input.startup,
        image: input.image,
        skip_scripts: input.skip_scripts,
        updated_at: now,
      });
      await audit(tx, { subjectId: id, before, after: await this.snapshot(tx, id) });
    });
    await syncQuietly(this.deps, server);
    return this.reread(server);
  }

  /**
   * Suspends or unsuspends (a server already in that state is left alone, without a daemon call or an audit
   * entry). The daemon is told at once; when it cannot be, the status goes back and the error is returned.
   * @throws HttpError 409 while the server is being transferred
   */
  async setSuspended(server: AdminServer, suspend: boolean, audit: Audit<AdminServer>): Promise<void> {
    if ((server.row.status === 'suspended') === suspend) return audit.nothingChanged();
    if ((await transferringServerIds(this.deps.db, [server.row.id])).size > 0) {
      throw new HttpError(409, 'ConflictHttpException', serverApplicationMessages.transferring);
    }
    const entryId = await this.setStatus(server, suspend ? 'suspended' : null, audit);
    try {
      await onDaemon(this.deps, daemonTarget(server), (daemon) => daemon.sync());
    } catch (error) {
      await this.restoreStatus(server, (tx) => audit.withdraw(tx, entryId));
      throw applicationDaemonError(error);
    }
  }

  /** Marks the server installing and has its daemon run the install script again; reverted when it cannot. */
  async reinstall(server: AdminServer, audit: Audit<AdminServer>): Promise<void> {
    const entryId = await this.setStatus(server, 'installing', audit);
    try {
      await onDaemon(this.deps, daemonTarget(server), (daemon) => daemon.reinstall());
    } catch (error) {
      await this.restoreStatus(server, (tx) => audit.withdraw(tx, entryId));
      throw applicationDaemonError(error);
    }
  }

  /** @returns the audit entry's id */
  private setStatus(server: AdminServer, status: string | null, audit: Audit<AdminServer>) {
    const id = server.row.id;
    return this.deps.db.transaction().execute(async (tx) => {
      const before = await this.snapshot(tx, id);
      await updateServerRow(tx, id, { status, updated_at: this.deps.clock() });
      return audit(tx, { subjectId: id, before, after: await this.snapshot(tx, id) });
    });
  }

  /**
   * Puts back the status the route read, after the daemon refused the change, and takes back the change's audit
   * entry in the same transaction.
   */
  private async restoreStatus(server: AdminServer, withdrawEntry: (tx: Tx) => Promise<void>) {
    await this.deps.db.transaction().execute(async (tx) => {
      await updateServerRow(tx, server.row.id, { status: server.row.status, updated_at: this.deps.clock() });
      await withdrawEntry(tx);
    });
  }

  /** The server as it is inside `tx`: an audit entry's before and after. @throws HttpError 404 once it is gone */
  private async snapshot(tx: Tx, id: number): Promise<AdminServer> {
    const server = await findAdminServer(tx, { id });
    if (!server) throw notFound();
    return server;
  }

  private async reread(server: AdminServer): Promise<AdminServer> {
    const fresh = await findAdminServer(this.deps.db, { id: server.row.id });
    if (!fresh) throw notFound();
    return fresh;
  }
}
