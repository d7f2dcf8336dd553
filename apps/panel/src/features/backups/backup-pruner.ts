import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, unattendedActivity } from '@aerie/panel/features/activity/activity-log';
import type { Log } from '@aerie/panel/logging/log';
import { backupMessages } from '@aerie/shared/backups/backups-messages';
import {
  endRestoring,
  markBackupFailed,
  restoringServersOfNode,
  staleRunningBackups,
} from './backups.repository';
import type { S3BackupStorage } from './storage/s3-storage';

/** How often the pruner looks for backups their node never reported on. */
export const PRUNE_INTERVAL_MS = 60_000;

/** Backups marked failed per statement batch. */
const BATCH = 500;

/**
 * Marks failed the backups whose node never reported their end within BACKUP_PRUNE_AGE (wings.md §7 "Failure":
 * upstream's prune_age, 360 minutes), so they stop counting towards the server's limit and can be deleted; an S3
 * upload they left open is aborted. Runs every minute with the app (cli/serve.ts), as the schedule ticker does.
 */
export class BackupPruner {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      log: Log;
      pruneAgeMinutes: number;
      s3: S3BackupStorage | null;
      activity: ActivityLog;
    },
  ) {}

  /**
   * A node's daemon started again (its `servers/reset`): whatever backup or restore it was running died with the
   * last daemon, which never starts one again. Its running backups are failed (the list shows them failed, they
   * can be deleted and made again) and its servers' restores end as failed in their activity logs.
   * @returns how many backups and restores it ended
   */
  async nodeRestarted(nodeId: number): Promise<{ backups: number; restores: number }> {
    const now = this.deps.clock();
    const backups = await this.#fail(undefined, nodeId, backupMessages.nodeRestarted);
    const restoring = await restoringServersOfNode(this.deps.db, nodeId);
    for (const { serverId, backupName } of restoring) {
      await this.deps.db.transaction().execute(async (tx) => {
        await endRestoring(tx, serverId, now);
        await this.deps.activity.record(tx, {
          event: 'server:backup.restore-failed',
          ...unattendedActivity({ id: serverId }),
          properties: { name: backupName },
        });
      });
    }
    return { backups, restores: restoring.length };
  }

  /**
   * One pass: every backup still running that started more than the prune age ago is failed.
   * @returns how many it marked
   */
  async tick(): Promise<number> {
    if (this.deps.pruneAgeMinutes <= 0) return 0;
    const now = this.deps.clock();
    const cutoff = new Date(now.getTime() - this.deps.pruneAgeMinutes * 60_000);
    return this.#fail(cutoff, undefined, backupMessages.neverAnswered);
  }

  /** Fails running backups started before `cutoff` (or all; of one node's servers, if given), each logged `backup.fail`. */
  async #fail(cutoff: Date | undefined, nodeId: number | undefined, reason: string): Promise<number> {
    const now = this.deps.clock();
    let marked = 0;
    for (;;) {
      const stale = await staleRunningBackups(this.deps.db, cutoff, BATCH, nodeId);
      for (const { backup, serverUuid, serverId } of stale) {
        const failed = await this.deps.db.transaction().execute(async (tx) => {
          if (!(await markBackupFailed(tx, backup.id, now))) return false;
          await this.deps.activity.record(tx, {
            event: 'server:backup.fail',
            ...unattendedActivity({ id: serverId }),
            properties: { name: backup.name },
          });
          return true;
        });
        if (!failed) continue;
        marked++;
        this.deps.log.warn({ backup: backup.uuid, server: serverUuid }, reason);
        if (backup.uploadId && this.deps.s3) {
          await this.deps.s3
            .abortUpload({ backup, server: { uuid: serverUuid } }, backup.uploadId)
            .catch((error: unknown) =>
              this.deps.log.warn({ err: error, backup: backup.uuid }, 'Could not abort its S3 upload'),
            );
        }
      }
      if (stale.length < BATCH) return marked;
    }
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#running) return;
      this.#running = this.tick()
        .catch((error: unknown) => {
          this.deps.log.error({ err: error }, 'Could not mark unanswered backups as failed');
          return 0;
        })
        .finally(() => {
          this.#running = null;
        });
    }, PRUNE_INTERVAL_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
