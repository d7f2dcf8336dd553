import { randomUUID } from 'node:crypto';
import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { DaemonResponseError, DaemonUnreachableError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError } from '@aerie/panel/daemon-client/daemon-http-error';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import { listEggVariables } from '@aerie/panel/features/eggs/eggs.repository';
import { committedOn, fits, lockNode } from '@aerie/panel/features/nodes/node-capacity';
import { toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import { findViableNodes } from '@aerie/panel/features/nodes/nodes.repository';
import { storeVariables, validateEnvironment } from '@aerie/panel/features/servers/server-variables';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import type { Log } from '@aerie/panel/logging/log';
import {
  type CreateServerBody,
  type ServerBuildBody,
  type ServerStartupBody,
  serverApplicationMessages,
  serverAttributeNames,
} from '@aerie/shared/servers/server-application-bodies';
import { type AdminServer, findAdminServer } from './admin-server';
import { type DeploySpec, pickAllocation } from './server-deployment';

/** What a feature removes of a server about to be deleted, given the server and its node. */
export type ServerDeletionStep = (
  server: { id: number; uuid: string },
  node: ReturnType<typeof toNodeRecord>,
) => Promise<void>;

/** Parallel deployments that lose their picked allocation to another request try again this often. */
const DEPLOY_ATTEMPTS = 5;

const names = serverAttributeNames;

/** The allocation lost to a parallel request (the claim found it taken). */
class AllocationTaken extends Error {}

/** The node has no room left (checked under the node's lock). */
class NodeFull extends Error {}

/**
 * The Application API's server verbs (reference application API §3.5, §4): create with an explicit allocation or
 * automatic deployment, details, build, startup, suspension, reinstall, delete. Node memory/disk and allocations
 * are reserved inside one transaction under the node's lock, so parallel requests can never both take the last
 * of either; the daemon is told after the commit.
 */
export class ServerManagementService {
  readonly #deletionSteps: ServerDeletionStep[] = [];
  readonly #afterDaemonSteps: ServerDeletionStep[] = [];

  constructor(private readonly deps: { db: Db; daemon: DaemonClient; clock: () => Date; log: Log }) {}

  /**
   * Adds what another feature removes of a server before it is deleted (its backups' archives), while its daemon
   * still knows it. A step is best effort: it logs what it could not remove and never stops the deletion.
   */
  onDelete(step: ServerDeletionStep): void {
    this.#deletionSteps.push(step);
  }

  /**
   * Adds what another feature removes of a server once its daemon has deleted it (or a forced delete went past it),
   * before the panel's rows go: its databases on their hosts, as upstream's ServerDeletionService drops them only
   * after the daemon. Best effort as well.
   */
  afterDaemonDelete(step: ServerDeletionStep): void {
    this.#afterDaemonSteps.push(step);
  }

  async create(input: CreateServerBody): Promise<AdminServer> {
    const { db } = this.deps;
    await this.assertUserExists(input.user, 'user', {});
    const egg = await db
      .selectFrom('eggs')
      .select(['id', 'nest_id'])
      .where('id', '=', input.egg)
      .executeTakeFirst();
    if (!egg) throw fieldRuleFailed('egg', 'exists');
    await this.assertExternalIdFree(input.external_id ?? null);

    const size = { memory: input.limits.memory, disk: input.limits.disk };
    const deploy: DeploySpec | null = input.deploy
      ? {
          locations: input.deploy.locations,
          dedicatedIp: Boolean(input.deploy.dedicated_ip) && input.deploy.dedicated_ip !== '0',
          portRange: input.deploy.port_range,
        }
      : null;
    const nodeIds = deploy
      ? (await findViableNodes(db, { locationIds: deploy.locations, ...size })).map((node) => node.id)
      : [];
    if (deploy && nodeIds.length === 0) {
      throw new HttpError(400, 'NoViableNodeException', serverApplicationMessages.noViableNode);
    }
    // Variables are validated after the deployment choice, before anything is written (upstream's order).
    const values = validateEnvironment(await listEggVariables(db, [egg.id]), input.environment);

    const lost = new Set<number>();
    for (let attempt = 1; ; attempt++) {
      const primary = deploy
        ? await pickAllocation(db, nodeIds, deploy, lost)
        : await this.explicitAllocation(input.allocation?.default ?? 0, 'allocation.default');
      const additional = deploy ? [] : await this.additionalAllocations(input.allocation?.additional ?? []);
      try {
        const created = await this.insert(input, egg, primary, additional, values);
        await this.tellDaemonCreated(created, input.start_on_completion ?? false);
        return (await findAdminServer(db, { id: created.id })) as AdminServer;
      } catch (error) {
        if (error instanceof AllocationTaken && deploy && attempt < DEPLOY_ATTEMPTS) {
          lost.add(primary.id);
          continue;
        }
        if (error instanceof AllocationTaken) throw fieldRuleFailed('allocation.default', 'exists');
        if (error instanceof NodeFull) {
          throw deploy
            ? new HttpError(400, 'NoViableNodeException', serverApplicationMessages.noViableNode)
            : displayError(serverApplicationMessages.nodeFull);
        }
        throw error;
      }
    }
  }

  /** PATCH details: every field written from the request (an omitted external_id clears it, as upstream). */
  async updateDetails(
    server: AdminServer,
    input: { external_id?: string | null; name: string; user: number; description?: string | null },
  ): Promise<AdminServer> {
    await this.assertUserExists(input.user, 'user');
    await this.assertExternalIdFree(input.external_id ?? null, server.row.id);
    await this.write('external_id', () =>
      this.deps.db
        .updateTable('servers')
        .set({
          external_id: input.external_id ?? null,
          name: input.name,
          owner_id: input.user,
          description: input.description ?? '',
          updated_at: this.deps.clock(),
        })
        .where('id', '=', server.row.id)
        .execute(),
    );
    if (input.user !== server.row.owner_id) {
      // The previous owner's live access ends: their console sockets and signed URLs on this server.
      const previous = await this.deps.db
        .selectFrom('users')
        .select('uuid')
        .where('id', '=', server.row.owner_id)
        .executeTakeFirst();
      if (previous) {
        await this.onDaemon(server, (daemon) => daemon.deny({ jtis: [], user_uuids: [previous.uuid] })).catch(
          (error: unknown) =>
            this.deps.log.warn(
              { err: error },
              `Could not end the previous owner's access to ${server.row.uuid}`,
            ),
        );
      }
    }
    await this.syncQuietly(server);
    return this.reread(server);
  }

  /**
   * PATCH build (upstream's BuildModificationService, in one transaction): allocations added (free ones on the
   * server's node only) and removed, the primary moved to a fallback when removed, limits written, and the node's
   * capacity checked for the new memory and disk.
   */
  async updateBuild(server: AdminServer, input: ServerBuildBody): Promise<AdminServer> {
    const { db } = this.deps;
    const primary = await db
      .selectFrom('allocations')
      .select(['id'])
      .where('id', '=', input.allocation)
      .executeTakeFirst();
    if (!primary) throw fieldRuleFailed('allocation', 'exists', names);
    const holder = await db
      .selectFrom('servers')
      .select('id')
      .where('allocation_id', '=', input.allocation)
      .where('id', '!=', server.row.id)
      .executeTakeFirst();
    if (holder) throw fieldRuleFailed('allocation', 'unique', names);
    const limits = input.limits ?? {
      memory: input.memory ?? 0,
      swap: input.swap ?? 0,
      io: input.io ?? 500,
      cpu: input.cpu ?? 0,
      disk: input.disk ?? 0,
      threads: input.threads,
    };
    const now = this.deps.clock();
    await db.transaction().execute(async (tx) => {
      const node = await lockNode(tx, server.row.node_id);
      const add = [...new Set(input.add_allocations ?? [])];
      const remove = [...new Set(input.remove_allocations ?? [])].filter((id) => !add.includes(id));
      let fallback: number | null = null;
      if (add.length > 0) {
        const free = await tx
          .selectFrom('allocations')
          .select('id')
          .where('id', 'in', add)
          .where('node_id', '=', server.row.node_id)
          .where('server_id', 'is', null)
          .orderBy('id')
          .execute();
        if (free.length > 0) {
          await tx
            .updateTable('allocations')
            .set({ server_id: server.row.id, notes: null, updated_at: now })
            .where(
              'id',
              'in',
              free.map((row) => row.id),
            )
            .where('server_id', 'is', null)
            .execute();
          fallback = free[0]?.id ?? null;
        }
      }
      let primaryId = input.allocation;
      if ((input.remove_allocations ?? []).includes(primaryId) && !add.includes(primaryId)) {
        if (fallback === null) throw displayError(serverApplicationMessages.noFallbackAllocation);
        primaryId = fallback;
      }
      if (remove.length > 0) {
        await tx
          .updateTable('allocations')
          .set({ server_id: null, notes: null, updated_at: now })
          .where(
            'id',
            'in',
            remove.filter((id) => id !== primaryId),
          )
          .where('server_id', '=', server.row.id)
          .where('node_id', '=', server.row.node_id)
          .execute();
      }
      const owned = await tx
        .selectFrom('allocations')
        .select('id')
        .where('id', '=', primaryId)
        .where('server_id', '=', server.row.id)
        .executeTakeFirst();
      if (!owned) throw displayError(serverApplicationMessages.defaultNotAssigned);
      if (node && (limits.memory > server.row.memory || limits.disk > server.row.disk)) {
        const committed = await committedOn(tx, server.row.node_id, server.row.id);
        if (!fits(node, committed, { memory: limits.memory, disk: limits.disk })) {
          throw displayError(serverApplicationMessages.nodeFull);
        }
      }
      await tx
        .updateTable('servers')
        .set({
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
        })
        .where('id', '=', server.row.id)
        .execute();
    });
    await this.syncQuietly(server);
    return this.reread(server);
  }

  /**
   * PATCH startup: with a non-empty environment every variable of the (new) egg is validated and written (absent
   * ones blanked, as upstream); the egg, startup, image and skip_scripts are saved. Unlike upstream the daemon is
   * told at once, so the next start uses them.
   */
  async updateStartup(server: AdminServer, input: ServerStartupBody): Promise<AdminServer> {
    const { db } = this.deps;
    const egg = await db
      .selectFrom('eggs')
      .select(['id', 'nest_id'])
      .where('id', '=', input.egg)
      .executeTakeFirst();
    if (!egg) throw fieldRuleFailed('egg', 'exists', names);
    const environment = input.environment as Record<string, unknown>;
    const values =
      Object.keys(environment).length > 0
        ? validateEnvironment(await listEggVariables(db, [egg.id]), environment)
        : null;
    const now = this.deps.clock();
    await db.transaction().execute(async (tx) => {
      if (values) await storeVariables(tx, server.row.id, values, now);
      await tx
        .updateTable('servers')
        .set({
          egg_id: egg.id,
          nest_id: egg.nest_id,
          startup: input.startup,
          image: input.image,
          skip_scripts: input.skip_scripts,
          updated_at: now,
        })
        .where('id', '=', server.row.id)
        .execute();
    });
    await this.syncQuietly(server);
    return this.reread(server);
  }

  /**
   * Suspends or unsuspends (a server already in that state is left alone, without a daemon call). The daemon
   * is told at once; when it cannot be, the status goes back and the error is returned.
   * @throws HttpError 409 while the server is being transferred
   */
  async setSuspended(server: AdminServer, suspend: boolean): Promise<void> {
    const { db } = this.deps;
    if ((server.row.status === 'suspended') === suspend) return;
    const transfer = await db
      .selectFrom('server_transfers')
      .select('id')
      .where('server_id', '=', server.row.id)
      .where('successful', 'is', null)
      .executeTakeFirst();
    if (transfer) throw new HttpError(409, 'ConflictHttpException', serverApplicationMessages.transferring);
    await this.setStatus(server, suspend ? 'suspended' : null);
    try {
      await this.onDaemon(server, (daemon) => daemon.sync());
    } catch (error) {
      await this.setStatus(server, server.row.status);
      throw applicationDaemonError(error);
    }
  }

  /** Marks the server installing and has its daemon run the install script again; reverted when it cannot. */
  async reinstall(server: AdminServer): Promise<void> {
    await this.setStatus(server, 'installing');
    try {
      await this.onDaemon(server, (daemon) => daemon.reinstall());
    } catch (error) {
      await this.setStatus(server, server.row.status);
      throw applicationDaemonError(error);
    }
  }

  /**
   * Deletes the server from its daemon (a daemon that no longer knows it is fine), then from the panel: its
   * allocations are released, its variables, subusers, schedules and backups go with it (the backups' archives
   * removed first by the step the backups feature registers, as best it can; its databases dropped on their hosts
   * once the daemon let it go). `force` deletes the panel's rows even when the daemon cannot be reached.
   */
  async delete(server: AdminServer, force: boolean): Promise<void> {
    await this.runDeletionSteps(server, this.#deletionSteps);
    try {
      await this.onDaemon(server, (daemon) => daemon.destroy());
    } catch (error) {
      const gone = error instanceof DaemonResponseError && error.status === 404;
      if (!gone && !force) throw applicationDaemonError(error);
      if (!gone) this.deps.log.warn({ err: error }, `Deleting server ${server.row.uuid} without its daemon`);
    }
    await this.runDeletionSteps(server, this.#afterDaemonSteps);
    await this.removeRows(server.row.id);
  }

  private async runDeletionSteps(server: AdminServer, steps: ServerDeletionStep[]) {
    if (steps.length === 0) return;
    const node = await this.nodeOf(server.row.node_id);
    for (const step of steps) {
      await step({ id: server.row.id, uuid: server.row.uuid }, node).catch((error: unknown) =>
        this.deps.log.warn({ err: error }, `Could not clean up after server ${server.row.uuid}`),
      );
    }
  }

  private async insert(
    input: CreateServerBody,
    egg: { id: number; nest_id: number },
    primary: { id: number; nodeId: number },
    additional: number[],
    values: Map<number, string>,
  ) {
    const now = this.deps.clock();
    for (let attempt = 0; ; attempt++) {
      const uuid = randomUUID();
      try {
        return await this.deps.db.transaction().execute(async (tx) => {
          const node = await lockNode(tx, primary.nodeId);
          if (!node) throw new AllocationTaken();
          if (!fits(node, await committedOn(tx, primary.nodeId), input.limits)) throw new NodeFull();
          await tx
            .insertInto('servers')
            .values({
              uuid,
              uuid_short: uuid.slice(0, 8),
              external_id: input.external_id ?? null,
              node_id: primary.nodeId,
              name: input.name,
              description: input.description ?? '',
              status: 'installing',
              skip_scripts: input.skip_scripts ?? false,
              owner_id: input.user,
              memory: input.limits.memory,
              swap: input.limits.swap,
              disk: input.limits.disk,
              io: input.limits.io,
              cpu: input.limits.cpu,
              threads: input.limits.threads ?? null,
              oom_disabled: input.oom_disabled ?? true,
              allocation_id: primary.id,
              nest_id: egg.nest_id,
              egg_id: egg.id,
              startup: input.startup,
              image: input.docker_image,
              allocation_limit: input.feature_limits.allocations ?? 0,
              database_limit: input.feature_limits.databases ?? 0,
              backup_limit: input.feature_limits.backups ?? 0,
              installed_at: null,
              created_at: now,
              updated_at: now,
            })
            .execute();
          const { id } = await tx
            .selectFrom('servers')
            .select('id')
            .where('uuid', '=', uuid)
            .executeTakeFirstOrThrow();
          await claim(tx, id, primary.nodeId, [primary.id, ...additional], now);
          await storeVariables(tx, id, values, now);
          return { id, uuid, nodeId: primary.nodeId };
        });
      } catch (error) {
        if (error instanceof AllocationTaken || error instanceof NodeFull) throw error;
        if (isUniqueViolation(error)) {
          // The allocation became some server's primary meanwhile, the external id was taken, or (rarely) the
          // 8-character identifier repeats: look again.
          await this.assertExternalIdFree(input.external_id ?? null);
          if (await this.allocationTaken(primary.id)) throw new AllocationTaken();
          if (attempt < 3) continue;
        }
        throw error;
      }
    }
  }

  private async tellDaemonCreated(created: { id: number; uuid: string; nodeId: number }, start: boolean) {
    const node = await this.nodeOf(created.nodeId);
    try {
      await this.deps.daemon.forServer(node, created.uuid).create(start);
    } catch (error) {
      // Upstream force-deletes the server when its daemon refuses it, and returns the daemon's error.
      await this.deps.daemon
        .forServer(node, created.uuid)
        .destroy()
        .catch(() => undefined);
      await this.removeRows(created.id);
      throw applicationDaemonError(error);
    }
  }

  private async removeRows(serverId: number) {
    await this.deps.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('allocations')
        .set({ server_id: null, updated_at: this.deps.clock() })
        .where('server_id', '=', serverId)
        .execute();
      await tx.deleteFrom('servers').where('id', '=', serverId).execute();
    });
  }

  private async explicitAllocation(id: number, field: string) {
    const row = await this.deps.db
      .selectFrom('allocations')
      .select(['id', 'node_id'])
      .where('id', '=', id)
      .where('server_id', 'is', null)
      .executeTakeFirst();
    if (!row) throw fieldRuleFailed(field, 'exists');
    return { id: row.id, nodeId: row.node_id };
  }

  private async additionalAllocations(ids: number[]) {
    const unique = [...new Set(ids)];
    for (const [index, id] of unique.entries())
      await this.explicitAllocation(id, `allocation.additional.${index}`);
    return unique;
  }

  private async allocationTaken(id: number) {
    const row = await this.deps.db
      .selectFrom('allocations')
      .select('server_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return !row || row.server_id !== null;
  }

  private async assertUserExists(id: number, field: string, attributes: Record<string, string> = names) {
    const user = await this.deps.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
    if (!user) throw fieldRuleFailed(field, 'exists', attributes);
  }

  private async assertExternalIdFree(externalId: string | null, exceptId?: number) {
    if (externalId === null) return;
    let query = this.deps.db.selectFrom('servers').select('id').where('external_id', '=', externalId);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw fieldRuleFailed('external_id', 'unique', names);
  }

  private async write<T>(field: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed(field, 'unique', names);
      throw error;
    }
  }

  private async setStatus(server: AdminServer, status: string | null) {
    await this.deps.db
      .updateTable('servers')
      .set({ status, updated_at: this.deps.clock() })
      .where('id', '=', server.row.id)
      .execute();
  }

  /** Has the daemon read the server's configuration again; an unreachable daemon reads it at its next boot. */
  private async syncQuietly(server: AdminServer) {
    try {
      await this.onDaemon(server, (daemon) => daemon.sync());
    } catch (error) {
      if (!(error instanceof DaemonUnreachableError)) throw applicationDaemonError(error);
      this.deps.log.warn(
        { err: error },
        `Could not tell the daemon of server ${server.row.uuid} about its change`,
      );
    }
  }

  private async onDaemon<T>(
    server: AdminServer,
    call: (daemon: ReturnType<DaemonClient['forServer']>) => Promise<T>,
  ): Promise<T> {
    const node = await this.nodeOf(server.row.node_id);
    return call(this.deps.daemon.forServer(node, server.row.uuid));
  }

  private async nodeOf(nodeId: number) {
    return toNodeRecord(
      await this.deps.db.selectFrom('nodes').selectAll().where('id', '=', nodeId).executeTakeFirstOrThrow(),
    );
  }

  private async reread(server: AdminServer): Promise<AdminServer> {
    const fresh = await findAdminServer(this.deps.db, { id: server.row.id });
    if (!fresh) throw notFound();
    return fresh;
  }
}

/** Claims allocations for a new server on its node; any one already taken undoes the whole creation. */
async function claim(tx: Tx, serverId: number, nodeId: number, ids: number[], now: Date) {
  const result = await tx
    .updateTable('allocations')
    .set({ server_id: serverId, updated_at: now })
    .where('id', 'in', ids)
    .where('node_id', '=', nodeId)
    .where('server_id', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== ids.length) throw new AllocationTaken();
}

/**
 * A failed daemon call as the Application API reports it (reference §6.3): 504 when the daemon cannot be
 * reached, else as the client API does.
 */
export function applicationDaemonError(error: unknown): unknown {
  const mapped = daemonHttpError(error);
  if (error instanceof DaemonUnreachableError && mapped instanceof HttpError) {
    return new HttpError(504, mapped.code, mapped.detail);
  }
  return mapped;
}
