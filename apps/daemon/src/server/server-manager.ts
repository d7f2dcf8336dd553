import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import { JobJournal, type JobKind } from '@aerie/daemon/jobs/job-journal';
import type { PanelApi } from '@aerie/daemon/panel-client/panel-client';
import type { RuntimeDriver } from '@aerie/daemon/runtime/runtime';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import { ManagedServer, type ManagedServerOptions, openFilesystem } from './managed-server';
import { StatesStore } from './states-store';

/** A server uuid as the panel issues them; anything else never becomes a path. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ServerManagerOptions {
  /** DAEMON_DATA_DIR: `volumes/<uuid>`, `states.json`, `logs/install`, `tmp`. */
  dataDirectory: string;
  driver: RuntimeDriver;
  panel: PanelApi;
  /** Timers and limits for every server (tests shorten them). */
  serverOptions?: Pick<
    ManagedServerOptions,
    'statsIntervalMs' | 'diskCheckIntervalMs' | 'throttle' | 'stopTimeoutMs' | 'crashTimeoutMs'
  >;
  /** DAEMON_ALLOWED_MOUNTS: host paths custom mounts may come from; never the data or backup directory. */
  mounts?: { allowed: readonly string[]; backupDirectory: string };
  statesDebounceMs?: number;
  /** Crash tests only (AERIE_TEST_PAUSE_JOB): jobs of this kind stop before their output is renamed into place. */
  pauseJobsAt?: string;
}

/** Every server on this daemon: boot from the panel, create, delete, persist states, shut down. */
export class ServerManager {
  readonly #options: ServerManagerOptions;
  readonly #servers = new Map<string, ManagedServer>();
  readonly #states: StatesStore;
  /** Jobs writing into servers' files (archive, decompress, restore): what a crash left is removed at boot. */
  readonly #jobs: JobJournal;
  #shuttingDown = false;

  constructor(options: ServerManagerOptions) {
    this.#options = options;
    this.#jobs = new JobJournal(path.join(options.dataDirectory, 'jobs'), { pauseAt: options.pauseJobsAt });
    this.#states = new StatesStore(path.join(options.dataDirectory, 'states.json'), {
      debounceMs: options.statesDebounceMs,
    });
  }

  get driver(): RuntimeDriver {
    return this.#options.driver;
  }

  get(uuid: string): ManagedServer | undefined {
    return this.#servers.get(uuid);
  }

  list(): ManagedServer[] {
    return [...this.#servers.values()];
  }

  /**
   * Loads every server of this node from the panel, re-adopts each game the last daemon left running (its
   * console, stats and power come back as they were), asks the panel to clear stuck install flags, and brings
   * every other server back to its last state: one that was starting or running is started again (in the
   * background: boot does not wait for them).
   */
  async boot(): Promise<void> {
    await mkdir(path.join(this.#options.dataDirectory, 'volumes'), { recursive: true, mode: 0o700 });
    const configurations = await this.#options.panel.listServers();
    await this.#removeInterruptedTransfers(new Set(configurations.map((c) => c.settings.uuid)));
    const previous = await this.#states.load();
    for (const configuration of configurations) {
      if (UUID.test(configuration.settings.uuid)) await this.#add(configuration);
    }
    const adopted = new Set<string>();
    await Promise.all(
      this.list().map(async (server) => {
        const runtime = await this.#options.driver.adopt(server.uuid).catch((error: unknown) => {
          console.error(`Could not re-adopt server ${server.uuid}: ${(error as Error).message}`);
          return undefined;
        });
        if (!runtime) return;
        adopted.add(server.uuid);
        server.adopt(runtime, previous.get(server.uuid));
      }),
    );
    // Only now that every running game is adopted: what other runs left (a deleted server's network) goes.
    const swept = await this.#options.driver.sweep?.(adopted).catch((error: unknown) => {
      console.error(`Could not end what earlier runs left: ${(error as Error).message}`);
      return 0;
    });
    if (swept) console.log(`Ended the network of ${swept} run(s) no server runs any more`);
    await this.#removeInterruptedJobs();
    await this.#options.panel.resetServers();
    for (const server of this.#servers.values()) {
      const state = previous.get(server.uuid);
      if (adopted.has(server.uuid)) continue;
      if (state === 'running' || state === 'starting') server.powerInBackground('start');
    }
  }

  /** POST /api/servers: fetches the configuration, creates the directory, installs (then starts if asked). */
  async create(uuid: string, startOnCompletion: boolean): Promise<ManagedServer> {
    const existing = this.#servers.get(uuid);
    if (existing) return existing;
    const server = await this.#add(await this.#options.panel.getServer(uuid));
    void server.install().then((successful) => {
      if (successful && startOnCompletion) server.powerInBackground('start');
    });
    return server;
  }

  /** Where an incoming transfer's files are extracted until they are whole (`transfers/<uuid>`). */
  transferStagingDirectory(uuid: string): string {
    if (!UUID.test(uuid)) throw new Error(`Not a server uuid: ${uuid}`);
    return path.join(this.#transfersDirectory, uuid);
  }

  /** A filesystem on `root` with the server's file owner, for files that are not a server's yet (a transfer). */
  async filesystemFor(uuid: string, root: string): Promise<ServerFilesystem> {
    return openFilesystem({ root, owner: await this.#options.driver.fileOwner?.(uuid) });
  }

  /**
   * A transfer's whole files become the server's (`transfers/<uuid>` renamed to `volumes/<uuid>`) and the server
   * joins this node, stopped. A marker says so until settleTransferred: a daemon killed before the panel took the
   * success finds it at boot and keeps the files only if the panel lists the server here.
   */
  async acceptTransferred(configuration: DaemonServerConfiguration, staging: string): Promise<ManagedServer> {
    const uuid = configuration.settings.uuid;
    await writeFile(this.#transferMarker(uuid), '', { mode: 0o600 });
    const directory = path.join(this.#options.dataDirectory, 'volumes', uuid);
    // Not a server of this node (the panel says it is moving here): whatever an earlier failure left goes.
    await rm(directory, { recursive: true, force: true });
    await rename(staging, directory);
    return this.#add(configuration);
  }

  /** After acceptTransferred: the panel took the success (the server stays) or did not (it goes, files and all). */
  async settleTransferred(uuid: string, successful: boolean): Promise<void> {
    if (!successful) await this.delete(uuid);
    await rm(this.#transferMarker(uuid), { force: true });
  }

  /** DELETE /api/servers/:server: the server stops at once and its files go. */
  async delete(uuid: string): Promise<void> {
    const server = this.#servers.get(uuid);
    if (!server) return;
    this.#servers.delete(uuid);
    this.#states.delete(uuid);
    await server.destroy();
  }

  /**
   * The daemon is stopping. With `leaveRunning` (SIGTERM, an upgrade, a lost supervisor) game servers keep
   * running and the next daemon re-adopts them; otherwise (Ctrl-C) they are ended now. Either way states.json
   * keeps what each server was doing, so the next boot brings it back to that state.
   */
  async shutdown(options: { leaveRunning?: boolean } = {}): Promise<void> {
    this.#shuttingDown = true;
    if (!options.leaveRunning && this.#options.driver.name === 'process') {
      await Promise.all(this.list().map((server) => server.shutdown()));
    }
    await this.#states.flush();
  }

  async #add(configuration: DaemonServerConfiguration): Promise<ManagedServer> {
    const uuid = configuration.settings.uuid;
    if (!UUID.test(uuid)) throw new Error(`The panel sent a server uuid that is not a uuid: ${uuid}`);
    const directory = path.join(this.#options.dataDirectory, 'volumes', uuid);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    // mkdir's mode only applies when it creates the directory: the jail root is private either way.
    await chmod(directory, 0o700);
    const server = new ManagedServer({
      ...this.#options.serverOptions,
      configuration,
      directory,
      driver: this.#options.driver,
      panel: this.#options.panel,
      installLogDirectory: path.join(this.#options.dataDirectory, 'logs', 'install'),
      jobs: this.#jobs.forServer(uuid),
      mountPolicy: {
        allowed: this.#options.mounts?.allowed ?? [],
        protectedPaths: [this.#options.dataDirectory, this.#options.mounts?.backupDirectory ?? ''].filter(
          Boolean,
        ),
      },
    });
    server.on('status', (state) => {
      // A transfer stops the server on the way out; a daemon killed meanwhile must bring it back as it was.
      if (this.#shuttingDown || this.#servers.get(uuid) !== server || server.isTransferring) return;
      this.#states.set(uuid, state);
    });
    this.#servers.set(uuid, server);
    this.#states.set(uuid, server.state);
    return server;
  }

  get #transfersDirectory(): string {
    return path.join(this.#options.dataDirectory, 'transfers');
  }

  #transferMarker(uuid: string): string {
    return path.join(this.#transfersDirectory, `${uuid}.received`);
  }

  /**
   * At boot: incoming transfers the last daemon did not finish. Half-extracted folders go; a received server whose
   * success the panel never took (it does not list the server here) loses the files it was given.
   */
  async #removeInterruptedTransfers(ours: ReadonlySet<string>): Promise<void> {
    await mkdir(this.#transfersDirectory, { recursive: true, mode: 0o700 });
    for (const name of await readdir(this.#transfersDirectory)) {
      const uuid = name.replace(/\.received$/, '');
      if (!UUID.test(uuid)) continue;
      if (name.endsWith('.received') && !ours.has(uuid)) {
        await rm(path.join(this.#options.dataDirectory, 'volumes', uuid), { recursive: true, force: true });
        console.log(`Removed the files of server ${uuid}: its transfer to this node did not finish`);
      } else if (!name.endsWith('.received')) {
        console.log(`Removed the partial files of an interrupted transfer of server ${uuid}`);
      }
      await rm(path.join(this.#transfersDirectory, name), { recursive: true, force: true });
    }
  }

  /**
   * Removes what jobs interrupted by the last daemon's end left half-written in servers' files. Their outcome is
   * the panel's to show: its reset (next) marks an interrupted install or restore failed, and the console says so.
   */
  async #removeInterruptedJobs(): Promise<void> {
    for (const job of await this.#jobs.interrupted()) {
      const server = this.#servers.get(job.server);
      try {
        if (server) {
          const removed = await (await server.files()).archives.removeLeftovers(job.leftovers);
          server.announce(interruptedJobMessage(job.kind, removed), { keep: true });
        }
        await this.#jobs.forget(job.id);
      } catch (error) {
        console.error(
          `Could not remove what an interrupted ${job.kind} left in ${job.server}: ${(error as Error).message}`,
        );
      }
    }
  }
}

function interruptedJobMessage(kind: JobKind, removed: number): string {
  const what = {
    archive: 'An archive',
    decompress: 'An extraction',
    restore: 'A backup restore',
    pull: 'A download from a URL',
  }[kind];
  const files = removed === 1 ? '1 unfinished file was' : `${removed} unfinished files were`;
  return `${what} was interrupted when the daemon stopped; ${files} removed. Run it again.`;
}
