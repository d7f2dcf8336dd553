import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { ServerDeletionService } from '@aerie/panel/features/admin-servers/server-deletion.service';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { BackupPruner } from './backup-pruner';
import { BackupsService } from './backups.service';
import { LocalBackupStorage } from './storage/local-storage';
import { S3BackupStorage } from './storage/s3-storage';

/**
 * Backups: the service the routes and the schedule worker call, its storage adapters (the node's directory, and
 * S3 when a bucket is configured), and the pruner that fails backups their node never answered for; `aerie up` and
 * `aerie panel` start it with the app (cli/serve.ts). A deleted server's archives are removed with it.
 */
export function createBackupsFeature(
  { db, clock, config, daemon, secretBox, log }: Infrastructure,
  { activity, serverDeletion }: { activity: ActivityLog; serverDeletion: ServerDeletionService },
) {
  const { backups: backupConfig } = config;
  const local = new LocalBackupStorage({ daemon, secretBox, issuer: config.appUrl });
  const s3 = backupConfig.s3
    ? new S3BackupStorage(backupConfig.s3, {
        maxPartSize: backupConfig.maxPartSize,
        presignedUrlLifespanSeconds: backupConfig.presignedUrlLifespanSeconds,
      })
    : null;
  const backups = new BackupsService({ db, clock, activity, log, daemon, config: backupConfig, local, s3 });
  serverDeletion.onDelete((server, node) => backups.removeServerArchives(server, node));
  return {
    backups,
    backupPruner: new BackupPruner({
      db,
      clock,
      log,
      pruneAgeMinutes: backupConfig.pruneAgeMinutes,
      s3,
      activity,
    }),
  };
}
