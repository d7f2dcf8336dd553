import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect } from 'kysely';

/**
 * Kysely's SQLite dialect with its one connection handed from query to query in arrival order. Kysely's own driver
 * guards the connection with a lock that wakes every waiter on each release, to find one of them that gets it: with
 * n queries waiting, each query costs O(n) wake-ups. On a loaded panel (hundreds of requests in flight, several
 * queries each) that lock took more CPU than the queries and made the panel slower the more it was asked. Here a
 * release wakes exactly the next waiter. A transaction still holds the connection from begin to commit.
 *
 * Transactions begin IMMEDIATE: they take the file's write lock at once (waiting out busy_timeout for another
 * process's write). A deferred one that read first and wrote later failed at once with SQLITE_BUSY, busy_timeout or
 * not, whenever another process (the running panel, while `aerie key:create` counted keys) wrote in between.
 */
export class QueuedSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new QueuedSqliteDriver(super.createDriver());
  }
}

class QueuedSqliteDriver implements Driver {
  /** SQLite's single connection, taken from Kysely's driver once, and never given back to it. */
  #connection: DatabaseConnection | undefined;
  #held = false;
  readonly #waiting: ((connection: DatabaseConnection) => void)[] = [];

  constructor(private readonly inner: Driver) {}

  async init(): Promise<void> {
    await this.inner.init();
    this.#connection = await this.inner.acquireConnection();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = this.#connection;
    if (!connection) throw new Error('The SQLite driver is not initialised');
    if (!this.#held) {
      this.#held = true;
      return connection;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    const next = this.#waiting.shift();
    // Handed straight over: still held, now by the next query.
    if (next && this.#connection) next(this.#connection);
    else this.#held = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint: Driver['savepoint'] = (...args) => this.#inner('savepoint')(...args);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (...args) =>
    this.#inner('rollbackToSavepoint')(...args);
  releaseSavepoint: Driver['releaseSavepoint'] = (...args) => this.#inner('releaseSavepoint')(...args);

  #inner<K extends 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'>(name: K) {
    const method = this.inner[name];
    if (!method) throw new Error(`The SQLite driver has no ${name}`);
    return method.bind(this.inner) as NonNullable<Driver[K]>;
  }

  async destroy(): Promise<void> {
    await this.inner.destroy();
  }
}
