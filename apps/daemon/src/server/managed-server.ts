import { EventEmitter } from 'node:events';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DiskUsage } from '@aerie/daemon/disk/disk-usage';
import type { DiskQuota } from '@aerie/daemon/fs/disk-quota';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import { runInstall } from '@aerie/daemon/install/install-runner';
import type { ServerJobs } from '@aerie/daemon/jobs/job-journal';
import type { PanelApi } from '@aerie/daemon/panel-client/panel-client';
import type { AdoptedRuntime, RuntimeDriver, RuntimeUsage } from '@aerie/daemon/runtime/runtime';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import { ConsolePipeline, THROTTLE_NOTICE } from './console-pipeline';
import type {
  ConsoleServer,
  ConsoleServerEvents,
  PowerAction,
  ServerState,
  ServerStats,
} from './console-server';
import { type MountPolicy, resolveCustomMounts } from './custom-mounts';
import { daemonMessage } from './daemon-message';
import { GameServer, ServerStateError } from './game-server';
import { configuredSettings, diskLimitBytes } from './server-configuration';
import { serverDiskQuota } from './server-disk-quota';
import { everyInterval } from './shared-interval';

export const INSTALLING_MESSAGE = 'Cannot perform this action: the server is currently installing.';
export const SUSPENDED_MESSAGE = 'Cannot start or restart a server that is suspended.';
export const NOT_ENOUGH_DISK_MESSAGE = 'Not enough disk space is available to start this server.';
export const DISK_LIMIT_EXCEEDED_MESSAGE =
  'Server is exceeding the assigned disk space limit, stopping process now.';
export const INSTALL_STARTED_MESSAGE = 'Starting installation process, this could take a few minutes...';
export const INSTALL_COMPLETED_MESSAGE = 'Installation process completed.';
/** Power actions, installs and new backups while a backup is being restored (the panel's text). */
export const RESTORING_MESSAGE = serverMessages.restoringBackup;
/** Power actions, installs, restores and a second transfer while the server is moving to another node. */
export const TRANSFERRING_MESSAGE = serverMessages.transferring;

/** Grace periods before a kill: Wings' disk-limit and suspension stops (1 min) and its reinstall stop (10 s). */
const DISK_LIMIT_STOP_MS = 60_000;
const REINSTALL_STOP_MS = 10_000;

/**
 * The filesystem module, loaded on the first files API call: it brings the archive libraries (tar, zip, ignore,
 * mime), which a daemon whose servers nobody browses never needs in memory.
 */
export async function openFilesystem(
  options: Parameters<typeof ServerFilesystem.open>[0],
): Promise<ServerFilesystem> {
  const { ServerFilesystem } = await import('@aerie/daemon/fs/server-filesystem');
  return ServerFilesystem.open(options);
}

const IDLE_USAGE: RuntimeUsage = {
  memoryBytes: 0,
  memoryLimitBytes: 0,
  cpuAbsolute: 0,
  rxBytes: 0,
  txBytes: 0,
};

export interface ManagedServerOptions {
  configuration: DaemonServerConfiguration;
  /** `volumes/<uuid>`, already created. */
  directory: string;
  driver: RuntimeDriver;
  panel: Pick<PanelApi, 'getServer' | 'getInstallScript' | 'reportInstall'>;
  /** `logs/install`: each install writes `<uuid>.log` there. */
  installLogDirectory: string;
  statsIntervalMs?: number;
  diskCheckIntervalMs?: number;
  throttle?: { lines: number; windowMs: number };
  stopTimeoutMs?: number;
  crashTimeoutMs?: number;
  /** Where its archive, decompress and restore jobs are journaled while they write. */
  jobs?: ServerJobs;
  /** The node's allowed mounts; without it, no custom mount is attached. */
  mountPolicy?: MountPolicy;
}

/**
 * A server as this daemon keeps it: the game server's lifecycle with the panel's configuration, the console
 * pipeline (history, throttle), stats every second while it runs, the disk limit, suspension and installs.
 * This is what the HTTP routes and the console websocket talk to.
 */
export class ManagedServer extends EventEmitter<ConsoleServerEvents> implements ConsoleServer {
  readonly uuid: string;
  readonly directory: string;
  readonly #options: ManagedServerOptions;
  readonly #game: GameServer;
  readonly #pipeline: ConsolePipeline;
  readonly #disk: DiskUsage;
  readonly #quota: DiskQuota;
  /** The filesystem, and the denylist it was opened with (a sync that changes the denylist reopens it). */
  #files: { denylist: string; filesystem: Promise<ServerFilesystem> } | undefined;
  #configuration: DaemonServerConfiguration;
  #usage: RuntimeUsage = IDLE_USAGE;
  /** Stops this server's samples on the shared stats clock; set while it runs. */
  #stopStatsClock: (() => void) | undefined;
  #sampling = false;
  #diskStopIssued = false;
  #installing = false;
  #restoring = false;
  #transferring = false;
  /** Set once a transfer succeeded: the panel deletes the server here next, and sockets are told it moved. */
  #transferred = false;
  #installAbort: AbortController | undefined;
  #deleted = false;
  /** Told when a new configuration suspends this server: its sockets close and its signed URLs stop at once. */
  readonly #suspendListeners = new Set<() => void>();

  constructor(options: ManagedServerOptions) {
    super();
    this.#options = options;
    this.#configuration = options.configuration;
    this.uuid = options.configuration.settings.uuid;
    this.directory = options.directory;
    // `error` events are for sockets; with nobody listening, Node would throw them instead.
    this.on('error', () => {});
    this.#pipeline = new ConsolePipeline(options.throttle);
    this.#disk = new DiskUsage(options.directory, { staleAfterMs: options.diskCheckIntervalMs });
    this.#quota = serverDiskQuota(this.#disk, () => diskLimitBytes(this.#configuration));
    this.#game = new GameServer({
      uuid: this.uuid,
      directory: options.directory,
      ...configuredSettings(options.configuration),
      createRuntime: () => options.driver.createRuntime(),
      stopTimeoutMs: options.stopTimeoutMs,
      crashTimeoutMs: options.crashTimeoutMs,
      beforeStart: () => this.#beforeStart(),
    });
    this.#game.on('status', (state) => this.#onStatus(state));
    this.#game.on('output', (line) => this.#onOutput(line));
    this.#game.on('daemon', (text) => this.#say(text));
  }

  get state(): ServerState {
    return this.#game.state;
  }
  get isInstalling(): boolean {
    return this.#installing;
  }
  /** True from a restore's acceptance until it ended (power actions, installs and backups are refused). */
  get isRestoring(): boolean {
    return this.#restoring;
  }
  /** True from a transfer's acceptance until it failed, or for good once it succeeded (the panel deletes it next). */
  get isTransferring(): boolean {
    return this.#transferring;
  }
  get isSuspended(): boolean {
    return this.#configuration.settings.suspended;
  }
  get configuration(): DaemonServerConfiguration {
    return this.#configuration;
  }
  /** True while a start, stop or restart holds the power lock. */
  get powerLocked(): boolean {
    return this.#game.powerLocked;
  }

  async power(action: PowerAction, waitMs = 0): Promise<void> {
    this.#assertIdle();
    if ((action === 'start' || action === 'restart') && this.isSuspended) {
      throw new ServerStateError(SUSPENDED_MESSAGE);
    }
    await this.#game.power(action, waitMs);
  }

  /** A power action accepted before it ran (HTTP 202): a failure goes to the sockets as an `error` event. */
  powerInBackground(action: PowerAction, waitMs = 0): void {
    this.power(action, waitMs).catch((error: unknown) => {
      this.emit('error', error instanceof Error ? error.message : String(error));
    });
  }

  sendCommand(command: string): void {
    this.#game.sendCommand(command);
  }

  recentLogs(size?: number): readonly string[] {
    return this.#pipeline.history(size);
  }

  stats(): ServerStats {
    const usage = this.state === 'offline' ? IDLE_USAGE : this.#usage;
    return {
      memory_bytes: usage.memoryBytes,
      memory_limit_bytes: usage.memoryLimitBytes,
      cpu_absolute: usage.cpuAbsolute,
      network: { rx_bytes: usage.rxBytes, tx_bytes: usage.txBytes },
      uptime: this.state === 'offline' ? 0 : this.#game.uptimeMs,
      state: this.state,
      disk_bytes: this.#disk.bytes,
    };
  }

  /** The disk count as of now (fresh), for callers that must not show a stale figure. */
  countDisk(): Promise<number> {
    return this.#disk.count();
  }

  /**
   * The jailed filesystem on this server's directory (what the files API uses): the egg's `file_denylist`, and
   * the disk limit as quota over the server's disk counter. Opened on first use; opened again when a sync,
   * install or start brought a different denylist (the limit is read live by the quota).
   */
  files(): Promise<ServerFilesystem> {
    const patterns = this.#configuration.settings.egg.file_denylist ?? [];
    const denylist = JSON.stringify(patterns);
    if (this.#files?.denylist !== denylist) {
      const filesystem = Promise.resolve(this.#options.driver.fileOwner?.(this.uuid)).then((owner) =>
        openFilesystem({
          root: this.directory,
          quota: this.#quota,
          denylist: patterns,
          owner,
          jobs: this.#options.jobs,
        }),
      );
      const opened = { denylist, filesystem };
      this.#files = opened;
      // A failed open (directory gone) is not remembered: the next call tries again.
      filesystem.catch(() => {
        if (this.#files === opened) this.#files = undefined;
      });
    }
    return this.#files.filesystem;
  }

  /**
   * Marks the server as restoring a backup until the returned function is called: power actions and installs
   * are refused meanwhile.
   * @throws ServerStateError when it is installing or already restoring
   */
  beginRestore(): () => void {
    this.#assertIdle();
    this.#restoring = true;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#restoring = false;
    };
  }

  /**
   * Marks the server as transferring until the returned function is called with the outcome: power actions,
   * installs and restores are refused meanwhile, and after a success for good (the panel deletes it here next).
   * @throws ServerStateError when it is installing, restoring or already transferring
   */
  beginTransfer(): (outcome: 'failed' | 'succeeded') => void {
    this.#assertIdle();
    this.#transferring = true;
    let ended = false;
    return (outcome) => {
      if (ended) return;
      ended = true;
      if (outcome === 'succeeded') this.#transferred = true;
      else this.#transferring = false;
    };
  }

  /** A transfer's progress line, to sockets allowed `admin.websocket.transfer`. */
  transferLog(text: string): void {
    this.emit('transfer logs', `\u001b[1m\u001b[33m[Transfer System] \u001b[0m${text}`);
  }

  #assertIdle(): void {
    if (this.#installing) throw new ServerStateError(INSTALLING_MESSAGE);
    if (this.#restoring) throw new ServerStateError(RESTORING_MESSAGE);
    if (this.#transferring) throw new ServerStateError(TRANSFERRING_MESSAGE);
  }

  /**
   * Asks the game to stop (its stop command or signal) and waits up to `timeoutMs` for it to be offline. No kill
   * within that time (Wings' restore waits 2 minutes, then gives up).
   * @returns whether the server is offline
   */
  async stopAndWait(timeoutMs: number): Promise<boolean> {
    if (this.state === 'offline') return true;
    const offline = new Promise<boolean>((resolve) => {
      const onStatus = (state: ServerState) => {
        if (state !== 'offline') return;
        clearTimeout(timer);
        this.off('status', onStatus);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.off('status', onStatus);
        resolve(this.state === 'offline');
      }, timeoutMs);
      this.on('status', onStatus);
    });
    this.#game.power('stop', timeoutMs).catch(() => {});
    return offline;
  }

  /** Says `text` on the console as the daemon (yellow `[Aerie Daemon]:` prefix). */
  announce(text: string, options: { keep?: boolean } = {}): void {
    this.#say(text);
    // Said at boot, before any console is open: kept in the history, which the next console is sent.
    if (options.keep) this.#pipeline.remember(daemonMessage(text));
  }

  /** Calls `listener` each time a configuration suspends this server (sync, install, start); returns the undo. */
  onSuspend(listener: () => void): () => void {
    this.#suspendListeners.add(listener);
    return () => this.#suspendListeners.delete(listener);
  }

  /** Re-reads the configuration from the panel; a server suspended while running is stopped (1 min, then kill). */
  async sync(): Promise<void> {
    this.#apply(await this.#options.panel.getServer(this.uuid));
    if (this.isSuspended && this.state !== 'offline') await this.#game.stopWithin(DISK_LIMIT_STOP_MS);
  }

  /**
   * Runs the egg's install script (Wings §5) and reports the outcome to the panel; resolves with it.
   * A running server is stopped first (10 s, then killed). Power actions are refused meanwhile.
   * @throws ServerStateError when an install is already running
   */
  async install(options: { reinstall?: boolean } = {}): Promise<boolean> {
    this.#assertIdle();
    this.#installing = true;
    const abort = new AbortController();
    this.#installAbort = abort;
    this.emit('install started');
    this.#say(INSTALL_STARTED_MESSAGE);
    let successful = false;
    try {
      if (this.state !== 'offline') await this.#game.stopWithin(REINSTALL_STOP_MS);
      this.#apply(await this.#options.panel.getServer(this.uuid));
      successful = this.#configuration.settings.skip_egg_scripts || (await this.#runInstallScript(abort));
    } catch (error) {
      this.#say(`Installation process failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#installing = false;
      this.#installAbort = undefined;
    }
    if (this.#deleted) return false;
    this.#say(INSTALL_COMPLETED_MESSAGE);
    void this.#disk.count().catch(() => {});
    // The panel first, the sockets after: a browser reloads the server on `install completed`, and must not
    // read it back while the panel still says installing.
    await this.#options.panel
      .reportInstall(this.uuid, { successful, reinstall: options.reinstall ?? false })
      .catch((error: unknown) => {
        this.#say(`Could not report the installation to the panel: ${(error as Error).message}`);
      });
    this.emit('install completed');
    return successful;
  }

  /** Stops the game, the timers and any install, removes what the runtime and the disk hold, tells sockets. */
  async destroy(): Promise<void> {
    this.#deleted = true;
    // Wings: a server that moved says so first, and clients connect to its new node.
    if (this.#transferred) this.emit('transfer status', 'completed');
    this.emit('deleted');
    this.#installAbort?.abort();
    this.#stopStats();
    await this.#game.kill();
    await this.#options.driver.destroy(this.uuid);
    await rm(this.directory, { recursive: true, force: true });
  }

  /**
   * Takes over the game an earlier daemon left running (see GameServer.adopt); a stop that daemon had begun is
   * carried through (the stop command again, then the grace period and a kill).
   */
  adopt(runtime: AdoptedRuntime, previous: ServerState | undefined): void {
    this.#game.adopt(runtime, previous);
    if (previous === 'stopping') this.#game.power('stop').catch(() => {});
  }

  /** The daemon is going away: end the process now; the caller decides what the state file keeps. */
  async shutdown(): Promise<void> {
    this.#installAbort?.abort();
    this.#stopStats();
    await this.#game.kill();
  }

  async #runInstallScript(abort: AbortController): Promise<boolean> {
    const script = await this.#options.panel.getInstallScript(this.uuid);
    const settings = configuredSettings(this.#configuration);
    const exitCode = await runInstall({
      uuid: this.uuid,
      directory: this.directory,
      script,
      environment: settings.environment,
      limits: settings.limits,
      driver: this.#options.driver,
      logFile: path.join(this.#options.installLogDirectory, `${this.uuid}.log`),
      onOutput: (line) => this.emit('install output', line),
      signal: abort.signal,
    });
    return exitCode === 0;
  }

  #apply(configuration: DaemonServerConfiguration): void {
    const wasSuspended = this.isSuspended;
    this.#configuration = configuration;
    this.#game.reconfigure(configuredSettings(configuration));
    if (this.isSuspended && !wasSuspended) for (const listener of this.#suspendListeners) listener();
  }

  /** Wings' pre-boot: fresh configuration, suspension, then a fresh disk count against the limit. */
  async #beforeStart(): Promise<void> {
    this.#assertIdle();
    this.#apply(await this.#options.panel.getServer(this.uuid));
    if (this.isSuspended) throw new ServerStateError(SUSPENDED_MESSAGE);
    await this.#attachMounts();
    const limit = diskLimitBytes(this.#configuration);
    if (limit > 0) {
      this.#say('Checking server disk space usage, this could take a few seconds...');
      if ((await this.#disk.count()) > limit) throw new ServerStateError(NOT_ENOUGH_DISK_MESSAGE);
    } else {
      void this.#disk.count().catch(() => {});
    }
    this.#diskStopIssued = false;
  }

  /** The configuration's mounts that this node allows, for the start to come; the console says which it left out. */
  async #attachMounts(): Promise<void> {
    const requested = this.#configuration.settings.mounts ?? [];
    const policy = this.#options.mountPolicy ?? { allowed: [], protectedPaths: [] };
    const { mounts, refused } = await resolveCustomMounts(requested, policy);
    for (const { target, reason } of refused) this.#say(`Mount ${target} was not attached: ${reason}.`);
    this.#game.reconfigure({ mounts });
  }

  #onStatus(state: ServerState): void {
    if (state === 'starting') this.#pipeline.resetWindow();
    // Every state but offline has a process (an adopted one may begin in running or stopping).
    if (state !== 'offline') this.#startStats();
    this.emit('status', state);
    if (state === 'offline') {
      this.#stopStats();
      this.#usage = IDLE_USAGE;
      this.emit('stats', this.stats());
    }
  }

  #onOutput(line: string): void {
    const verdict = this.#pipeline.push(line);
    if (verdict === 'deliver') this.emit('console output', line);
    else if (verdict === 'drop with notice') this.#say(THROTTLE_NOTICE);
  }

  #say(text: string): void {
    this.emit('daemon message', daemonMessage(text));
  }

  #startStats(): void {
    if (this.#stopStatsClock) return;
    this.#stopStatsClock = everyInterval(
      this.#options.statsIntervalMs ?? 1000,
      () => void this.#sampleStats(),
    );
  }

  #stopStats(): void {
    this.#stopStatsClock?.();
    this.#stopStatsClock = undefined;
  }

  async #sampleStats(): Promise<void> {
    const runtime = this.#game.runtime;
    if (this.#sampling || !runtime || this.state === 'offline') return;
    this.#sampling = true;
    try {
      this.#usage = await runtime.usage();
    } catch {
      // /proc or the engine could not answer this time; the next tick tries again.
    } finally {
      this.#sampling = false;
    }
    // The process may have ended while the sample was taken: offline already sent its zeroed stats.
    if (!this.#game.runtime) return;
    // The sample itself is kept for GET /api/servers/:uuid; the event object only for sockets that listen.
    if (this.listenerCount('stats') > 0) this.emit('stats', this.stats());
    if (this.#disk.dueWhileRunning) {
      this.#disk.refreshWhileRunning().then(
        (bytes) => this.#enforceDiskLimit(bytes),
        () => {},
      );
    }
  }

  /**
   * Once per start: a server over its disk limit is told so and stopped (1 min, then killed); one that goes on
   * writing during that minute, past the limit by a tenth more, is killed at once.
   */
  #enforceDiskLimit(bytes: number): void {
    const limit = diskLimitBytes(this.#configuration);
    if (limit <= 0 || bytes <= limit || this.state === 'offline') return;
    if (this.#diskStopIssued) {
      if (bytes > limit * 1.1) void this.#game.kill().catch(() => {});
      return;
    }
    this.#diskStopIssued = true;
    this.#say(DISK_LIMIT_EXCEEDED_MESSAGE);
    this.#game.stopWithin(DISK_LIMIT_STOP_MS).catch(() => {});
  }
}
