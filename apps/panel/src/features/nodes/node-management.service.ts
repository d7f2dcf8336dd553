import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import { DEFAULT_DAEMON_BASE, type NodeBody, nodeMessages } from '@aerie/shared/nodes/nodes-bodies';
import {
  type ApplicationNode,
  deleteNodeWithoutServers,
  findNode,
  insertNode,
  nodeExists,
  updateNode,
} from './nodes.repository';
import { newDaemonToken } from './nodes.service';

/** Laravel stores a `numeric` value in an integer column rounded. */
const whole = (value: number) => Math.round(value);

/** The columns a node body sets; fields left out stay as they are (or take the column default on create). */
function columnsOf(input: NodeBody) {
  return {
    name: input.name,
    location_id: input.location_id,
    public: input.public,
    fqdn: input.fqdn,
    scheme: input.scheme,
    behind_proxy: input.behind_proxy,
    maintenance_mode: input.maintenance_mode,
    memory: whole(input.memory),
    memory_overallocate: whole(input.memory_overallocate),
    disk: whole(input.disk),
    disk_overallocate: whole(input.disk_overallocate),
    upload_size: input.upload_size,
    daemon_listen: whole(input.daemon_listen),
    daemon_sftp: whole(input.daemon_sftp),
    // Upstream's request fills a missing daemon_base with the default, on update too (reference §3.3 quirk).
    daemon_base: input.daemon_base ?? DEFAULT_DAEMON_BASE,
  };
}

/**
 * Nodes through the Application API (reference application API §3.3): create with a fresh daemon token, full
 * update (optionally with a new token), delete when no server is on the node. Each runs in one transaction with
 * its audit entry.
 */
export class NodeManagementService {
  constructor(private readonly deps: { db: Db; clock: () => Date; secretBox: SecretBox }) {}

  /** @returns the new node's id */
  create(input: NodeBody, audit: Audit<ApplicationNode>): Promise<number> {
    const { db, clock, secretBox } = this.deps;
    const now = clock();
    const token = newDaemonToken();
    return db.transaction().execute(async (tx) => {
      const id = await insertNode(tx, {
        ...columnsOf(input),
        public: input.public ?? true,
        behind_proxy: input.behind_proxy ?? false,
        maintenance_mode: input.maintenance_mode ?? false,
        upload_size: input.upload_size ?? 100,
        uuid: randomUUID(),
        description: null,
        daemon_token_id: token.id,
        daemon_token: secretBox.seal(token.token),
        created_at: now,
        updated_at: now,
      });
      await audit(tx, { subjectId: id, after: await findNode(tx, id) });
      return id;
    });
  }

  /**
   * Saves every field sent; `resetSecret` (the body's `reset_secret` being JSON `true`) issues a new token id
   * and token, after which the node's daemon must be given the new configuration document.
   *
   * Unlike upstream, nothing is pushed to the daemon (upstream POSTs the document to Wings' /api/update and
   * answers 400 ConfigurationNotPersistedException when that fails): an Aerie daemon takes its configuration
   * from its environment (or the DAEMON_CONFIG file) when it starts, so a changed port, token or upload limit
   * applies once the daemon is restarted with the node's new configuration.
   * @throws HttpError 404 unknown node
   */
  async update(
    id: number,
    input: NodeBody,
    resetSecret: boolean,
    audit: Audit<ApplicationNode>,
  ): Promise<void> {
    const { db, clock, secretBox } = this.deps;
    const token = resetSecret ? newDaemonToken() : null;
    await db.transaction().execute(async (tx) => {
      const before = await findNode(tx, id);
      if (!before) throw notFound();
      await updateNode(tx, id, {
        ...columnsOf(input),
        ...(token ? { daemon_token_id: token.id, daemon_token: secretBox.seal(token.token) } : {}),
        updated_at: clock(),
      });
      const after = await findNode(tx, id);
      // The node never renders its token: the entry says a new one was issued, never what it is.
      await audit(tx, { subjectId: id, before, after, secretsSet: token ? ['daemon_token'] : [] });
    });
  }

  /**
   * Deletes the node unless a server is on it, in one statement inside a transaction: a server created on the
   * node at the same moment either makes the delete find it or fails on its foreign key, never ends up
   * without its node. The node's allocations go with it (foreign key cascade); database hosts on it are kept,
   * without a node.
   * @throws HttpError 404 unknown node, 400 HasActiveServersException
   */
  async delete(id: number, audit: Audit<ApplicationNode>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findNode(tx, id);
      if (before && (await deleteNodeWithoutServers(tx, id))) {
        await audit(tx, { subjectId: id, before });
        return;
      }
      if (!(await nodeExists(tx, id))) throw notFound();
      throw new HttpError(400, 'HasActiveServersException', nodeMessages.hasServers);
    });
  }
}
