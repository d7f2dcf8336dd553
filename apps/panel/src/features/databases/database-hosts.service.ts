import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import { type DatabaseHostBody, databaseHostMessages } from '@aerie/shared/databases/database-hosts-bodies';
import { type DatabaseHost, toDatabaseHost } from './database-host';
import { checkHostConnection } from './drivers/database-host-driver';

/**
 * Database hosts: the MySQL/MariaDB or PostgreSQL servers that per-server databases are created on. A host is only
 * saved once the panel could connect to it with the given admin account; its password is sealed with the app key.
 */
export class DatabaseHostsService {
  constructor(private readonly deps: { db: Db; secretBox: SecretBox; clock: () => Date }) {}

  async find(id: number): Promise<DatabaseHost | null> {
    const row = await this.deps.db
      .selectFrom('database_hosts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDatabaseHost(row) : null;
  }

  /** @throws HttpError 422 unknown node, 400 when the host cannot be reached with these credentials */
  async create(input: DatabaseHostBody): Promise<DatabaseHost> {
    await this.assertNode(input.node_id ?? null);
    const password = input.password ?? '';
    await this.check(input, password);
    const now = this.deps.clock();
    const { db } = this.deps;
    const id = await insertReturningId(
      db,
      db.insertInto('database_hosts').values({
        name: input.name,
        driver: input.driver ?? 'mysql',
        host: input.host,
        port: input.port,
        username: input.username,
        password: this.deps.secretBox.seal(password),
        max_databases: null,
        node_id: input.node_id ?? null,
        created_at: now,
        updated_at: now,
      }),
    );
    return (await this.find(id)) as DatabaseHost;
  }

  /** An empty password keeps the stored one; the connection is checked with what will be stored. */
  async update(host: DatabaseHost, input: DatabaseHostBody): Promise<DatabaseHost> {
    await this.assertNode(input.node_id ?? null);
    const password = input.password ?? this.deps.secretBox.open(host.password);
    await this.check(input, password);
    await this.deps.db
      .updateTable('database_hosts')
      .set({
        name: input.name,
        driver: input.driver ?? host.driver,
        host: input.host,
        port: input.port,
        username: input.username,
        password: this.deps.secretBox.seal(password),
        node_id: input.node_id ?? null,
        updated_at: this.deps.clock(),
      })
      .where('id', '=', host.id)
      .execute();
    return (await this.find(host.id)) as DatabaseHost;
  }

  /** @throws HttpError 400 HasActiveServersException while a server's database is on the host, 404 */
  async delete(id: number): Promise<void> {
    const used = await this.deps.db
      .selectFrom('databases')
      .select('id')
      .where('database_host_id', '=', id)
      .executeTakeFirst();
    if (used) throw new HttpError(400, 'HasActiveServersException', databaseHostMessages.hasDatabases);
    const result = await this.deps.db.deleteFrom('database_hosts').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound();
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
    const node = await this.deps.db
      .selectFrom('nodes')
      .select('id')
      .where('id', '=', nodeId)
      .executeTakeFirst();
    if (!node) throw fieldRuleFailed('node_id', 'exists', { node_id: 'node' });
  }
}
