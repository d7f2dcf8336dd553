import { DaemonResponseError } from '@aerie/panel/daemon-client/daemon-client';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { removeServerRows } from '@aerie/panel/features/servers/delete-server';
import { findNodeById } from '@aerie/panel/features/servers/servers.repository';
import { type AdminServer, findAdminServer } from './admin-server';
import { type AdminServerDeps, applicationDaemonError } from './server-daemon';

/** What a feature removes of a server about to be deleted, given the server and its node. */
export type ServerDeletionStep = (server: { id: number; uuid: string }, node: NodeRecord) => Promise<void>;

/**
 * `DELETE /api/application/servers/{id}[/force]`: the daemon first (a daemon that no longer knows the server is
 * fine), then the panel's rows. Other features hook their clean-up in: backups before the daemon, databases after.
 */
export class ServerDeletionService {
  readonly #beforeDaemon: ServerDeletionStep[] = [];
  readonly #afterDaemon: ServerDeletionStep[] = [];

  constructor(private readonly deps: AdminServerDeps) {}

  /**
   * Adds what another feature removes of a server before it is deleted (its backups' archives), while its daemon
   * still knows it. A step is best effort: it logs what it could not remove and never stops the deletion.
   */
  onDelete(step: ServerDeletionStep): void {
    this.#beforeDaemon.push(step);
  }

  /**
   * Adds what another feature removes of a server once its daemon has deleted it (or a forced delete went past it),
   * before the panel's rows go: its databases on their hosts, as upstream's ServerDeletionService drops them only
   * after the daemon. Best effort as well.
   */
  afterDaemonDelete(step: ServerDeletionStep): void {
    this.#afterDaemon.push(step);
  }

  /**
   * Deletes the server from its daemon, then from the panel: its allocations are released, its variables,
   * subusers, schedules and backups go with it. `force` deletes the panel's rows even when the daemon cannot be
   * reached. The audit entry is recorded with the rows' removal.
   */
  async delete(server: AdminServer, force: boolean, audit: Audit<AdminServer>): Promise<void> {
    // Read once: the steps before and after, and the daemon call, all need the server's node.
    const node = await findNodeById(this.deps.db, server.row.node_id);
    await this.runSteps(server, node, this.#beforeDaemon);
    try {
      await this.deps.daemon.forServer(node, server.row.uuid).destroy();
    } catch (error) {
      const gone = error instanceof DaemonResponseError && error.status === 404;
      if (!gone && !force) throw applicationDaemonError(error);
      if (!gone) this.deps.log.warn({ err: error }, `Deleting server ${server.row.uuid} without its daemon`);
    }
    await this.runSteps(server, node, this.#afterDaemon);
    await this.deleteRows(server.row.id, audit);
  }

  private async deleteRows(id: number, audit: Audit<AdminServer>) {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findAdminServer(tx, { id });
      // A parallel delete removed it first, and recorded that itself.
      if (!before) return;
      await removeServerRows(tx, id, this.deps.clock());
      await audit(tx, { subjectId: id, before });
    });
  }

  private async runSteps(server: AdminServer, node: NodeRecord, steps: ServerDeletionStep[]) {
    for (const step of steps) {
      await step({ id: server.row.id, uuid: server.row.uuid }, node).catch((error: unknown) =>
        this.deps.log.warn({ err: error }, `Could not clean up after server ${server.row.uuid}`),
      );
    }
  }
}
