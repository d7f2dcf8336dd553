import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { findEggForServer, listEggVariables } from '@aerie/panel/features/eggs/egg-lookups';
import { findViableNodes } from '@aerie/panel/features/nodes/node-lookups';
import { findFreeAllocation } from '@aerie/panel/features/nodes/server-allocations';
import {
  AllocationTaken,
  createServerRecord,
  ExternalIdTaken,
  NodeFull,
} from '@aerie/panel/features/servers/create-server';
import { removeServerRows } from '@aerie/panel/features/servers/delete-server';
import { validateEnvironment } from '@aerie/panel/features/servers/server-variables';
import { userExists } from '@aerie/panel/features/users/user-lookups';
import { displayError, HttpError } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import {
  type CreateServerBody,
  serverApplicationMessages,
  serverAttributeNames,
} from '@aerie/shared/servers/server-application-bodies';
import { type AdminServer, findAdminServer } from './admin-server';
import { assertExternalIdFree } from './server-checks';
import { type AdminServerDeps, applicationDaemonError, onDaemon } from './server-daemon';
import { type DeploySpec, pickAllocation } from './server-deployment';

/** Parallel deployments that lose their picked allocation to another request try again this often. */
const DEPLOY_ATTEMPTS = 5;

/**
 * `POST /api/application/servers` (reference application API §3.5, §4): create on an explicit allocation or by
 * automatic deployment. The node's memory/disk and the allocations are reserved by `createServerRecord` under the
 * node's lock, so parallel requests can never both take the last of either; the daemon is told after the commit.
 * The audit entry is recorded in that transaction: a server whose daemon then refuses it is deleted again, and
 * its entry stays (the server did exist for that moment).
 */
export class ServerCreationService {
  constructor(private readonly deps: AdminServerDeps) {}

  async create(input: CreateServerBody, audit: Audit<AdminServer>): Promise<AdminServer> {
    const { db } = this.deps;
    if (!(await userExists(db, input.user))) throw fieldRuleFailed('user', 'exists');
    const egg = await findEggForServer(db, input.egg);
    if (!egg) throw fieldRuleFailed('egg', 'exists');
    await assertExternalIdFree(db, input.external_id ?? null);

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
    const variables = validateEnvironment(await listEggVariables(db, [egg.id]), input.environment);

    const lost = new Set<number>();
    for (let attempt = 1; ; attempt++) {
      const primary = deploy
        ? await pickAllocation(db, nodeIds, deploy, lost)
        : await this.explicitAllocation(input.allocation?.default ?? 0, 'allocation.default');
      const additional = deploy ? [] : await this.additionalAllocations(input.allocation?.additional ?? []);
      try {
        let entryId = 0;
        const created = await createServerRecord(
          db,
          {
            name: input.name,
            description: input.description ?? '',
            ownerId: input.user,
            externalId: input.external_id ?? null,
            status: 'installing',
            installedAt: null,
            skipScripts: input.skip_scripts ?? false,
            oomDisabled: input.oom_disabled ?? true,
            limits: { ...input.limits, threads: input.limits.threads ?? null },
            featureLimits: {
              allocations: input.feature_limits.allocations ?? 0,
              databases: input.feature_limits.databases ?? 0,
              backups: input.feature_limits.backups ?? 0,
            },
            egg,
            startup: input.startup,
            image: input.docker_image,
            variables,
            placement: { nodeId: primary.nodeId, allocationIds: [primary.id, ...additional] },
          },
          this.deps.clock(),
          async (tx, id) => {
            entryId = await audit(tx, { subjectId: id, after: await findAdminServer(tx, { id }) });
          },
        );
        await this.tellDaemonCreated(created, input.start_on_completion ?? false, (tx) =>
          audit.withdraw(tx, entryId),
        );
        return (await findAdminServer(db, { id: created.id })) as AdminServer;
      } catch (error) {
        if (error instanceof AllocationTaken && deploy && attempt < DEPLOY_ATTEMPTS) {
          lost.add(primary.id);
          continue;
        }
        if (error instanceof AllocationTaken) throw fieldRuleFailed('allocation.default', 'exists');
        if (error instanceof ExternalIdTaken)
          throw fieldRuleFailed('external_id', 'unique', serverAttributeNames);
        if (error instanceof NodeFull) {
          throw deploy
            ? new HttpError(400, 'NoViableNodeException', serverApplicationMessages.noViableNode)
            : displayError(serverApplicationMessages.nodeFull);
        }
        throw error;
      }
    }
  }

  /**
   * Has the daemon create the server. When it refuses, the server is deleted again (as upstream force-deletes it),
   * its audit entry withdrawn in the same transaction, and the daemon's error returned.
   */
  private async tellDaemonCreated(
    created: { id: number; uuid: string; nodeId: number },
    start: boolean,
    withdrawEntry: (tx: Tx) => Promise<void>,
  ) {
    try {
      await onDaemon(this.deps, created, (daemon) => daemon.create(start));
    } catch (error) {
      await onDaemon(this.deps, created, (daemon) => daemon.destroy()).catch(() => undefined);
      await this.deps.db.transaction().execute(async (tx) => {
        await removeServerRows(tx, created.id, this.deps.clock());
        await withdrawEntry(tx);
      });
      throw applicationDaemonError(error);
    }
  }

  private async explicitAllocation(id: number, field: string) {
    const row = await findFreeAllocation(this.deps.db, id);
    if (!row) throw fieldRuleFailed(field, 'exists');
    return { id: row.id, nodeId: row.node_id };
  }

  private async additionalAllocations(ids: number[]) {
    const unique = [...new Set(ids)];
    for (const [index, id] of unique.entries())
      await this.explicitAllocation(id, `allocation.additional.${index}`);
    return unique;
  }
}
