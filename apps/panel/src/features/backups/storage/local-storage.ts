import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { DaemonResponseError } from '@aerie/panel/daemon-client/daemon-client';
import { signDaemonJwt } from '@aerie/panel/features/console/daemon-jwt';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';
import { BACKUP_DOWNLOAD_PURPOSE } from '@aerie/shared/backups/backups-daemon-wire';
import type { BackupLocation, BackupStorage, DownloadRequester } from './backup-storage';

/** Lifetime of a backup download link (reference §0: 15 minutes, as file links). */
export const BACKUP_DOWNLOAD_TTL_SECONDS = 15 * 60;

/**
 * Backups kept by the node in its backup directory (`wings`, Wings' adapter name): the daemon serves the archive
 * at `<node>/download/backup?token=` and removes it on request.
 */
export class LocalBackupStorage implements BackupStorage {
  readonly adapter = 'wings' as const;

  constructor(private readonly deps: { daemon: DaemonClient; secretBox: SecretBox; issuer: string }) {}

  /**
   * `<node>/download/backup?token=`: a 15-minute, single-use token with purpose `backup_download` naming the
   * server and the backup (BackupDownloadClaims), signed with the node's token as file links are.
   */
  async downloadUrl({ backup, server, node }: BackupLocation, requester: DownloadRequester): Promise<string> {
    const token = await signDaemonJwt({
      node,
      nodeToken: this.deps.secretBox.open(node.daemonToken),
      user: requester.user,
      serverUuid: server.uuid,
      issuer: this.deps.issuer,
      now: requester.now,
      ttlSeconds: BACKUP_DOWNLOAD_TTL_SECONDS,
      purpose: BACKUP_DOWNLOAD_PURPOSE,
      claims: { backup_uuid: backup.uuid },
    });
    return `${nodeAddress(node)}/download/backup?token=${token}`;
  }

  async restoreUrl(): Promise<null> {
    return null;
  }

  /** `DELETE …/backup/{uuid}` on the node; its 404 (no such file) counts as removed, as upstream. */
  async remove({ backup, server, node }: BackupLocation): Promise<void> {
    try {
      await this.deps.daemon.forServer(node, server.uuid).backups.delete(backup.uuid);
    } catch (error) {
      if (error instanceof DaemonResponseError && error.status === 404) return;
      throw error;
    }
  }
}
