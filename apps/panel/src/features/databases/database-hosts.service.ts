import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { nodeExists } from '@aerie/panel/features/nodes/node-lookups';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import { type DatabaseHostBody, databaseHostMessages } from '@aerie/shared/databases/database-hosts-bodies';
import type { DatabaseHost } from './database-host';
import {
  deleteHost,
  findHost,
  type HostValues,
  hostHasDatabases,
  insertHost,
  updateHost,
} from './database-hosts.repository';
import { checkHostConnection } from './drivers/database-host-driver';

/**
 * Database hosts: the MySQL/MariaDB or PostgreSQL servers that per-server databases are created on. A host is only
 * saved once the panel could connect to it with the given admin account; its password is sealed with the app key.
 * The connection is checked before the transaction that writes the host and its audit entry, never inside it.
 */
export class DatabaseHostsService {
  constructor(private readonly deps: { db: Db; secretBox: SecretBox; clock: () => Date }) {}

  find(id: number): Promise<DatabaseHost | null> {
    return findHost(this.deps.db, id);
  }

  /** @throws HttpError 422 unknown node, 400 when the host cannot be reached with these credentials */
  async create(input: DatabaseHostBody, audit: Audit<DatabaseHost>): Promise<DatabaseHost> {
    await this.assertNode(input.node_id ?? null);
    const password = input.password ?? '';
    await this.check(input, password);
    return this.deps.db.transaction().execute(async (tx) => {
      const id = await insertHost(
        tx,
        this.#values(input, input.driver ?? 'mysql', password),
        this.deps.clock(),
      );
      const host = (await findHost(tx, id)) as DatabaseHost;
      await audit(tx, { subjectId: id, after: host, secretsSet: secretsOf(input) });
      return host;
    });
  }

  /** An empty password keeps the stored one; the connection is checked with what will be stored. */
  async update(
    host: DatabaseHost,
    input: DatabaseHostBody,
    audit: Audit<DatabaseHost>,
  ): Promise<DatabaseHost> {
    await this.assertNode(input.node_id ?? null);
    const password = input.password ?? this.deps.secretBox.open(host.password);
    await this.check(input, password);
    return this.deps.db.transaction().execute(async (tx) => {
      const before = await findHost(tx, host.id);
      // Deleted while its connection was checked.
      if (!before) throw notFound();
      const values = this.#values(input, input.driver ?? host.driver, password);
      await updateHost(tx, host.id, values, this.deps.clock());
      const after = (await findHost(tx, host.id)) as DatabaseHost;
      await audit(tx, { subjectId: host.id, before, after, secretsSet: secretsOf(input) });
      return after;
    });
  }

  /** @throws HttpError 400 HasActiveServersException while a server's database is on the host, 404 */
  async delete(id: number, audit: Audit<DatabaseHost>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if (await hostHasDatabases(tx, id))
        throw new HttpError(400, 'HasActiveServersException', databaseHostMessages.hasDatabases);
      const before = await findHost(tx, id);
      if (!before || !(await deleteHost(tx, id))) throw notFound();
      await audit(tx, { subjectId: id, before });
    });
  }

  /** The columns written, the password sealed with the app key. */
  #values(input: DatabaseHostBody, driver: DatabaseHost['driver'], password: string): HostValues {
    return {
      name: input.name,
      driver,
      host: input.host,
      port: input.port,
      username: input.username,
      sealedPassword: this.deps.secretBox.seal(password),
      nodeId: input.node_id ?? null,
    };
  }

  private async check(input: DatabaseHostBody, password: string) {
    try {
      await checkHostConnection({
        driver: input.driver ?? 'mysql',
        host: input.host,
        port: input.port,
        username: input.username,
        password,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw displayError(databaseHostMessages.connectionFailed(message));
    }
  }

  private async assertNode(nodeId: number | null) {
    if (nodeId === null) return;
    if (!(await nodeExists(this.deps.db, nodeId)))
      throw fieldRuleFailed('node_id', 'exists', { node_id: 'node' });
  }
}

/** The host's password, when the body set one: never rendered, so the entry lists it as changed. */
const secretsOf = (input: DatabaseHostBody): string[] => (input.password == null ? [] : ['password']);
