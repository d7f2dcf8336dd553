import { randomInt } from 'node:crypto';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { serverDatabaseLimits, serverDatabaseMessages } from '@aerie/shared/databases/databases-bodies';
import type { DatabaseHost } from './database-host';
import type { HostCredentials } from './drivers/database-host-driver';
import { serverDatabaseDriverFor } from './drivers/server-database-driver-for';
import type { ServerDatabaseWithHost } from './server-database';
import {
  countServerDatabases,
  databaseNameTaken,
  deleteDatabaseRow,
  findServerDatabase,
  insertDatabaseRow,
  listHosts,
  listServerDatabases,
  lockServerForDatabases,
  replacePassword,
} from './server-databases.repository';

/** Who asked, for the activity log: a user through a client route, or nobody (the Application API, as upstream). */
type Actor = Pick<ServerAccess, 'user' | 'origin'> | null;

/** A host refused or could not be reached: nothing was changed. Routes word it for their audience. */
export class DatabaseHostFailure extends Error {
  constructor(readonly hostError: unknown) {
    super(hostError instanceof Error ? hostError.message : String(hostError));
    this.name = 'DatabaseHostFailure';
  }
}

export const tooManyDatabases = () =>
  new HttpError(400, 'TooManyDatabasesException', serverDatabaseMessages.tooMany);
export const noSuitableHost = () =>
  new HttpError(400, 'NoSuitableDatabaseHostException', serverDatabaseMessages.noSuitableHost);
export const duplicateDatabase = () =>
  new HttpError(400, 'DuplicateDatabaseNameException', serverDatabaseMessages.duplicate);

/** Parallel creates whose random username collided (never, in practice) try again this often. */
const INSERT_ATTEMPTS = 3;
/** Parallel rotations of one database: each loser sets the host again until the panel and the host agree. */
const ROTATE_ATTEMPTS = 5;

const LETTERS_AND_DIGITS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SPECIALS = '!@=.+^';

const randomString = (length: number) =>
  Array.from({ length }, () => LETTERS_AND_DIGITS[randomInt(LETTERS_AND_DIGITS.length)]).join('');

/** Upstream's password: 24 random letters and digits, 2 to 6 positions swapped for one of `! @ = . + ^`. */
export function generateDatabasePassword(): string {
  const characters = randomString(serverDatabaseLimits.passwordLength).split('');
  for (let swaps = randomInt(2, 7); swaps > 0; swaps--) {
    characters[randomInt(characters.length)] = SPECIALS[randomInt(SPECIALS.length)] as string;
  }
  return characters.join('');
}

export const generateDatabaseUsername = (serverId: number) =>
  `u${serverId}_${randomString(serverDatabaseLimits.usernameRandomLength)}`;

/** What a new database is: its full name (`s{server}_…`, see storedDatabaseName), remote and host. */
export interface NewServerDatabase {
  database: string;
  remote: string;
  host: DatabaseHost;
}

/**
 * Per-server databases (Pterodactyl's DeployServerDatabaseService, DatabaseManagementService,
 * DatabasePasswordService). A create reserves the row first, counting the server's databases with its row locked
 * so parallel creates never pass `database_limit`, then makes the database on its host outside any transaction
 * (a host may take seconds; SQLite would stall every other write meanwhile), and logs it (activity and audit) in
 * the transaction that confirms the row is still there. A host failure deletes the reserved row, and the driver
 * drops what it made. Each change takes its audit recorder: the Application API's, or `unrecorded` for a client's.
 */
export class ServerDatabasesService {
  constructor(
    private readonly deps: {
      db: Db;
      secretBox: SecretBox;
      clock: () => Date;
      log: Log;
      activity: ActivityLog;
    },
  ) {}

  list(serverId: number): Promise<ServerDatabaseWithHost[]> {
    return listServerDatabases(this.deps.db, [serverId]);
  }

  find(serverId: number, id: number | undefined): Promise<ServerDatabaseWithHost | undefined> {
    return findServerDatabase(this.deps.db, serverId, id);
  }

  passwordOf(database: ServerDatabaseWithHost): string {
    return this.deps.secretBox.open(database.password);
  }

  /** The name is free on the server (the client's `unique` rule). */
  async nameTaken(serverId: number, database: string): Promise<boolean> {
    return databaseNameTaken(this.deps.db, serverId, database);
  }

  /**
   * The host a client's new database goes on (DeployServerDatabaseService): one linked to the server's node, else
   * any host (upstream's PTERODACTYL_CLIENT_DATABASES_ALLOW_RANDOM, on by default), picked at random.
   * @throws HttpError 400 NoSuitableDatabaseHostException when there is no host at all
   */
  async pickHost(nodeId: number): Promise<DatabaseHost> {
    const hosts = await listHosts(this.deps.db);
    if (hosts.length === 0) throw noSuitableHost();
    const linked = hosts.filter((host) => host.nodeId === nodeId);
    const pool = linked.length > 0 ? linked : hosts;
    return pool[randomInt(pool.length)] as DatabaseHost;
  }

  /**
   * @throws HttpError 400 TooManyDatabasesException (a limit of 0 refuses all, null allows any), 400
   *   DuplicateDatabaseNameException, 404 when the database was deleted while its host made it; DatabaseHostFailure
   */
  async create(
    server: { id: number },
    input: NewServerDatabase,
    actor: Actor,
    audit: Audit<ServerDatabaseWithHost>,
  ): Promise<ServerDatabaseWithHost> {
    const { db, secretBox } = this.deps;
    const password = generateDatabasePassword();
    const { id, username } = await this.#reserve(server.id, input, secretBox.seal(password));
    const target = { database: input.database, username, remote: input.remote };
    try {
      await serverDatabaseDriverFor(input.host.driver).create(this.#credentials(input.host), {
        ...target,
        password,
        maxConnections: null,
      });
    } catch (error) {
      await deleteDatabaseRow(db, id);
      throw this.#failure(error, 'create', input.database);
    }
    const kept = await db.transaction().execute(async (tx) => {
      const created = await findServerDatabase(tx, server.id, id);
      if (!created) return false;
      await this.#record(tx, server, actor, 'server:database.create', input.database);
      await audit(tx, { subjectId: id, after: created, secretsSet: ['password'] });
      return true;
    });
    if (!kept) {
      // Deleted while its host was making it: what the host made goes too.
      await this.#dropQuietly(input.host, target);
      throw notFound();
    }
    return (await this.find(server.id, id)) as ServerDatabaseWithHost;
  }

  /**
   * Gives the database's user a new password on its host (`ALTER USER`/`ALTER ROLE`), then stores it if nobody
   * rotated it meanwhile; a rotation that lost the race sets the host again from what is stored.
   * @throws HttpError 404 when the database is gone; DatabaseHostFailure
   */
  async rotatePassword(
    server: { id: number },
    database: ServerDatabaseWithHost,
    actor: Actor,
    audit: Audit<ServerDatabaseWithHost>,
  ): Promise<ServerDatabaseWithHost> {
    const { db, secretBox, clock } = this.deps;
    for (let attempt = 1; ; attempt++) {
      const current = await this.find(server.id, database.id);
      if (!current) throw notFound();
      const password = generateDatabasePassword();
      try {
        await serverDatabaseDriverFor(current.host.driver).rotatePassword(
          this.#credentials(current.host),
          current,
          password,
        );
      } catch (error) {
        throw this.#failure(error, 'rotate the password of', current.database);
      }
      const stored = await db.transaction().execute(async (tx) => {
        const before = await findServerDatabase(tx, server.id, current.id);
        if (!(await replacePassword(tx, current.id, current.password, secretBox.seal(password), clock()))) {
          return false;
        }
        await this.#record(tx, server, actor, 'server:database.rotate-password', current.database);
        const after = await findServerDatabase(tx, server.id, current.id);
        // The password is never rendered: the entry says it changed, never what to.
        await audit(tx, { subjectId: current.id, before, after, secretsSet: ['password'] });
        return true;
      });
      if (stored) return (await this.find(server.id, current.id)) as ServerDatabaseWithHost;
      if (attempt >= ROTATE_ATTEMPTS) {
        throw new HttpError(409, 'ConflictHttpException', 'The password was changed by another request.');
      }
    }
  }

  /**
   * Drops the database and its user on the host (`IF EXISTS`: a database already gone there is fine), then the
   * row. A host failure keeps the row, so the delete can be tried again.
   * @throws HttpError 404 when another request deleted it first; DatabaseHostFailure
   */
  async delete(
    server: { id: number },
    database: ServerDatabaseWithHost,
    actor: Actor,
    audit: Audit<ServerDatabaseWithHost>,
  ): Promise<void> {
    try {
      await serverDatabaseDriverFor(database.host.driver).drop(this.#credentials(database.host), database);
    } catch (error) {
      throw this.#failure(error, 'delete', database.database);
    }
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findServerDatabase(tx, server.id, database.id);
      if (!(await deleteDatabaseRow(tx, database.id))) throw notFound();
      await this.#record(tx, server, actor, 'server:database.delete', database.database);
      await audit(tx, { subjectId: database.id, before });
    });
  }

  /**
   * Drops every database of a server being deleted on its host (upstream's ServerDatabaseDeletion step), as best it
   * can: a host that fails is logged and its database left there; the rows go with the server.
   */
  async dropAllOf(serverId: number): Promise<void> {
    for (const database of await listServerDatabases(this.deps.db, [serverId])) {
      await this.#dropQuietly(database.host, database);
    }
  }

  async #reserve(
    serverId: number,
    input: NewServerDatabase,
    sealedPassword: string,
  ): Promise<{ id: number; username: string }> {
    const { db, clock } = this.deps;
    for (let attempt = 1; ; attempt++) {
      const username = generateDatabaseUsername(serverId);
      try {
        const id = await db.transaction().execute(async (tx) => {
          const { limit } = await lockServerForDatabases(tx, serverId);
          if (limit !== null && (await countServerDatabases(tx, serverId)) >= limit) {
            throw tooManyDatabases();
          }
          if (await databaseNameTaken(tx, serverId, input.database)) throw duplicateDatabase();
          const now = clock();
          return insertDatabaseRow(
            tx,
            {
              serverId,
              hostId: input.host.id,
              database: input.database,
              username,
              remote: input.remote,
              sealedPassword,
            },
            now,
          );
        });
        return { id, username };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (await databaseNameTaken(db, serverId, input.database)) throw duplicateDatabase();
        if (attempt >= INSERT_ATTEMPTS) throw error;
      }
    }
  }

  #credentials(host: DatabaseHost): HostCredentials {
    return {
      driver: host.driver,
      host: host.host,
      port: host.port,
      username: host.username,
      password: this.deps.secretBox.open(host.password),
    };
  }

  #failure(error: unknown, what: string, database: string): DatabaseHostFailure {
    this.deps.log.warn({ err: error }, `Could not ${what} database ${database} on its host`);
    return new DatabaseHostFailure(error);
  }

  async #dropQuietly(host: DatabaseHost, target: { database: string; username: string; remote: string }) {
    try {
      await serverDatabaseDriverFor(host.driver).drop(this.#credentials(host), target);
    } catch (error) {
      this.deps.log.warn(
        { err: error },
        `Could not drop database ${target.database} on host ${host.name}; it is left there`,
      );
    }
  }

  #record(
    tx: Tx,
    server: { id: number },
    actor: Actor,
    event: 'server:database.create' | 'server:database.rotate-password' | 'server:database.delete',
    name: string,
  ): Promise<unknown> {
    if (!actor) return Promise.resolve();
    return this.deps.activity.record(tx, {
      event,
      actor: actor.user,
      server,
      ip: actor.origin.ip,
      isApi: actor.origin.isApi,
      properties: { name },
    });
  }
}
