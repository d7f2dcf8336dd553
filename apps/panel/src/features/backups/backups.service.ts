import { randomUUID } from 'node:crypto';
import type { BackupConfig } from '@aerie/panel/config/load-config';
import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError } from '@aerie/panel/daemon-client/daemon-http-error';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ActivityLog, unattendedActivity } from '@aerie/panel/features/activity/activity-log';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { badRequest, HttpError, notFound } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { type BackupAdapter, defaultBackupName } from '@aerie/shared/backups/backups-bodies';
import { backupMessages } from '@aerie/shared/backups/backups-messages';
import { canSetLocked, isDeletionBlocked } from './backup.policy';
import { type BackupRecord, isRunning } from './backup-record';
import {
  countNonFailedBackups,
  endRestoring,
  findBackupById,
  insertBackup,
  liveServerBackups,
  lockBackupRow,
  lockServerForBackups,
  markBackupFailed,
  nodeLeftAfter,
  oldestRotatableBackup,
  pageOfServerBackups,
  setBackupLocked,
  softDeleteBackup,
  startRestoring,
  throttledBackups,
} from './backups.repository';
import type { BackupLocation, BackupStorage } from './storage/backup-storage';
import type { LocalBackupStorage } from './storage/local-storage';
import type { S3BackupStorage } from './storage/s3-storage';

/** The server a backup is made of, and its node: a route's access, or a schedule's claimed server. */
export interface BackupTarget {
  server: { id: number; uuid: string };
  node: NodeRecord;
}

/** Who asked, for the activity log: a user through a route, or nobody (a schedule). */
type Actor = Pick<ServerAccess, 'user' | 'origin'> | null;

export interface NewBackupInput {
  /** Blank: `Backup at YYYY-MM-DD HH:MM:SS`. */
  name: string | null | undefined;
  /** Ignore rules, one per entry. */
  ignored: string[];
  isLocked: boolean;
}

/** A page of the server's backups. */
export interface BackupPage {
  records: BackupRecord[];
  total: number;
  /** Not failed (running or successful): what the limit counts. */
  backupCount: number;
}

/** The backup limit was reached and nothing may be rotated out. */
const tooManyBackups = (limit: number) =>
  new HttpError(400, 'TooManyBackupsException', backupMessages.tooMany(limit));

/**
 * The Backups page's verbs (reference §7.2 "Backups"; Pterodactyl's InitiateBackupService, DeleteBackupService,
 * RestoreBackup). Creation counts the throttle and the limit and reserves the row with the server's row locked, so
 * parallel requests can never pass either; every change is logged in its transaction (`server:backup.*`); the
 * daemon is told after the commit, and a refusal marks the backup failed (or the restore undone) at once. The
 * schedule worker's backup task calls `create` as the route does, with no actor.
 */
export class BackupsService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      activity: ActivityLog;
      log: Log;
      daemon: DaemonClient;
      config: BackupConfig;
      local: LocalBackupStorage;
      s3: S3BackupStorage | null;
    },
  ) {}

  /** The adapter of a backup's disk, or undefined for a disk this panel has none for. */
  storageOf(disk: string): BackupStorage | undefined {
    if (disk === 'wings') return this.deps.local;
    if (disk === 's3') return this.deps.s3 ?? undefined;
    return undefined;
  }

  /** The S3 adapter, when a bucket is configured. */
  get s3(): S3BackupStorage | null {
    return this.deps.s3;
  }

  async list(access: ServerAccess, page: number, perPage: number): Promise<BackupPage> {
    const [pageOf, backupCount] = await Promise.all([
      pageOfServerBackups(this.deps.db, access.server.id, page, perPage),
      countNonFailedBackups(this.deps.db, access.server.id),
    ]);
    return { ...pageOf, backupCount };
  }

  /** The backup as stored now. */
  async view(backup: Pick<BackupRecord, 'id'>): Promise<BackupRecord> {
    const current = await findBackupById(this.deps.db, backup.id);
    if (!current) throw notFound();
    return current;
  }

  /** POST …/backups: `is_locked` honoured only with backup.delete (backup.policy.ts). */
  createFromRoute(
    access: ServerAccess,
    body: { name?: string | null; ignored: string[]; is_locked?: boolean | null },
  ): Promise<BackupRecord> {
    return this.create(
      access,
      { name: body.name, ignored: body.ignored, isLocked: Boolean(body.is_locked) && canSetLocked(access) },
      { actor: access, scheduled: false },
    );
  }

  /**
   * Starts a backup: throttle (429), then limit (400; a schedule's backup rotates the oldest unlocked successful
   * one out first when BACKUP_ROTATE_OLDEST is on), then the row and `server:backup.start` in one transaction
   * under the server's lock; then `POST /api/servers/{uuid}/backup` on the node. A refusal marks it failed.
   * @throws HttpError 429 TooManyRequestsHttpException, 400 TooManyBackupsException, or the daemon's error
   */
  async create(
    target: BackupTarget,
    input: NewBackupInput,
    options: { actor: Actor; scheduled: boolean },
  ): Promise<BackupRecord> {
    const { db, clock, config } = this.deps;
    const now = clock();
    const name = input.name?.trim() || defaultBackupName(now);
    const disk: BackupAdapter = config.driver;
    const uuid = randomUUID();
    let rotated: BackupRecord | undefined;
    const id = await db.transaction().execute(async (tx) => {
      const server = await lockServerForBackups(tx, target.server.id);
      if (config.throttlePeriodSeconds > 0) {
        const since = new Date(now.getTime() - config.throttlePeriodSeconds * 1000);
        const recent = await throttledBackups(tx, target.server.id, since);
        if (recent.count >= config.throttleLimit) {
          const freeAt = (recent.oldest ?? now).getTime() + config.throttlePeriodSeconds * 1000;
          throw new HttpError(
            429,
            'TooManyRequestsHttpException',
            backupMessages.throttled(config.throttleLimit, config.throttlePeriodSeconds),
            { headers: { 'retry-after': String(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))) } },
          );
        }
      }
      const limit = server.backup_limit ?? 0;
      if (limit <= 0 || (await countNonFailedBackups(tx, target.server.id)) >= limit) {
        const rotate = options.scheduled && config.rotateOldest && limit > 0;
        rotated = rotate ? await oldestRotatableBackup(tx, target.server.id) : undefined;
        if (!rotated) throw tooManyBackups(limit);
        await softDeleteBackup(tx, rotated.id, now);
        await this.#record(tx, target, options.actor, 'server:backup.delete', {
          name: rotated.name,
          rotated: true,
        });
      }
      const id = await insertBackup(
        tx,
        {
          serverId: target.server.id,
          uuid,
          name,
          ignoredFiles: input.ignored,
          disk,
          isLocked: input.isLocked,
        },
        now,
      );
      await this.#record(tx, target, options.actor, 'server:backup.start', { name, locked: input.isLocked });
      return id;
    });
    if (rotated) await this.#removeQuietly(rotated, target);
    try {
      await this.#daemon(target).create({ adapter: disk, uuid, ignore: input.ignored.join('\n') });
    } catch (error) {
      await markBackupFailed(db, id, clock());
      this.deps.log.warn(
        { err: error, backup: uuid },
        `The node refused backup ${uuid}; it is marked as failed`,
      );
      throw daemonHttpError(error);
    }
    return this.view({ id });
  }

  /** POST …/backups/{backup}/lock: toggles `is_locked` (`server:backup.lock` / `.unlock`). */
  async toggleLock(access: ServerAccess, backup: BackupRecord): Promise<BackupRecord> {
    await this.deps.db.transaction().execute(async (tx) => {
      const current = await lockBackupRow(tx, backup.id);
      if (!current) throw notFound();
      const locked = !current.isLocked;
      await setBackupLocked(tx, backup.id, locked, this.deps.clock());
      await this.#record(tx, access, access, locked ? 'server:backup.lock' : 'server:backup.unlock', {
        name: current.name,
      });
    });
    return this.view(backup);
  }

  /**
   * GET …/backups/{backup}/download: a one-time daemon link (15 min) or a presigned S3 GET (5 min), logged as
   * `server:backup.download`.
   * @throws HttpError 400 for a disk this panel has no adapter for
   */
  async downloadUrl(access: ServerAccess, backup: BackupRecord): Promise<string> {
    const storage = this.#storage(backup);
    const url = await storage.downloadUrl(await this.#keptAt(access, backup), {
      user: access.user,
      now: this.deps.clock(),
    });
    await this.#record(this.deps.db, access, access, 'server:backup.download', { name: backup.name });
    return url;
  }

  /**
   * POST …/backups/{backup}/restore: the server's status becomes `restoring_backup` in one conditional statement
   * (of two parallel restores only one starts), logged as `server:backup.restore`, then the node restores (from
   * a presigned GET for s3). A refusal clears the status again.
   * @throws HttpError 400 when the server has a status or the backup is running or failed; the daemon's error
   */
  async restore(access: ServerAccess, backup: BackupRecord, truncate: boolean): Promise<void> {
    if (access.server.status !== null) throw badRequest(backupMessages.restoreServerState);
    if (!backup.isSuccessful || isRunning(backup)) throw badRequest(backupMessages.restoreNotReady);
    const storage = this.#storage(backup);
    const { db, clock } = this.deps;
    await db.transaction().execute(async (tx) => {
      await lockServerForBackups(tx, access.server.id);
      if (!(await startRestoring(tx, access.server.id, clock()))) {
        throw badRequest(backupMessages.restoreServerState);
      }
      await this.#record(tx, access, access, 'server:backup.restore', { name: backup.name, truncate });
    });
    try {
      const kept = await this.#keptAt(access, backup);
      // A local backup the server's old node keeps: the new node fetches it from there, through a signed link.
      const downloadUrl =
        kept.node.id === access.node.id
          ? await storage.restoreUrl(kept)
          : await storage.downloadUrl(kept, { user: access.user, now: clock() });
      await this.#daemon(access).restore(backup.uuid, {
        adapter: storage.adapter,
        truncate_directory: truncate,
        download_url: downloadUrl,
      });
    } catch (error) {
      await endRestoring(db, access.server.id, clock());
      throw daemonHttpError(error);
    }
  }

  /**
   * DELETE …/backups/{backup}: the archive is removed (the node's 404 ignored; the panel deletes an S3 object
   * itself), then the row is soft-deleted and `server:backup.delete` logged.
   * @throws HttpError 400 BackupLockedException for a locked successful backup; 404 when deleted meanwhile
   */
  async remove(access: ServerAccess, backup: BackupRecord): Promise<void> {
    if (isDeletionBlocked(backup)) {
      throw new HttpError(400, 'BackupLockedException', backupMessages.locked);
    }
    const storage = this.#storage(backup);
    await storage.remove(await this.#keptAt(access, backup)).catch((error: unknown) => {
      throw daemonHttpError(error);
    });
    await this.deps.db.transaction().execute(async (tx) => {
      if (!(await softDeleteBackup(tx, backup.id, this.deps.clock()))) throw notFound();
      await this.#record(tx, access, access, 'server:backup.delete', { name: backup.name });
    });
  }

  /**
   * Removes the archives of a server about to be deleted, as best it can (its rows go with the server): what
   * cannot be removed is logged and left.
   */
  async removeServerArchives(server: { id: number; uuid: string }, node: NodeRecord): Promise<void> {
    for (const backup of await liveServerBackups(this.deps.db, server.id)) {
      await this.#removeQuietly(backup, { server, node });
    }
  }

  async #removeQuietly(backup: BackupRecord, target: BackupTarget): Promise<void> {
    const storage = this.storageOf(backup.disk);
    try {
      await storage?.remove(await this.#keptAt(target, backup));
    } catch (error) {
      this.deps.log.warn(
        { err: error, backup: backup.uuid },
        `Could not remove the archive of backup ${backup.uuid}`,
      );
    }
  }

  #storage(backup: BackupRecord): BackupStorage {
    const storage = this.storageOf(backup.disk);
    if (!storage) throw badRequest(backupMessages.unknownDisk);
    return storage;
  }

  /** Where the backup's archive lies: a local one on the node that made it, which the server may have left since. */
  async #keptAt(target: BackupTarget, backup: BackupRecord): Promise<BackupLocation & { node: NodeRecord }> {
    const here = { backup, server: { uuid: target.server.uuid }, node: target.node };
    if (backup.disk !== 'wings') return here;
    const node = await nodeLeftAfter(this.deps.db, target.server.id, backup.createdAt);
    return node ? { ...here, node } : here;
  }

  #daemon(target: BackupTarget) {
    return this.deps.daemon.forServer(target.node, target.server.uuid).backups;
  }

  #record(
    db: Db | Tx,
    target: BackupTarget,
    actor: Actor,
    event:
      | 'server:backup.start'
      | 'server:backup.lock'
      | 'server:backup.unlock'
      | 'server:backup.delete'
      | 'server:backup.download'
      | 'server:backup.restore',
    properties: Record<string, unknown>,
  ) {
    const who = actor
      ? { actor: actor.user, server: target.server, ip: actor.origin.ip, isApi: actor.origin.isApi }
      : unattendedActivity(target.server);
    return this.deps.activity.record(db, { event, ...who, properties });
  }
}
