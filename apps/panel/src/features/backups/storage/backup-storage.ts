import type { DaemonNode } from '@aerie/panel/daemon-client/daemon-client';
import type { BackupRecord } from '@aerie/panel/features/backups/backup-record';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { BackupAdapter } from '@aerie/shared/backups/backups-bodies';

/** The backup an adapter works on, and where: its server and that server's node. */
export interface BackupLocation {
  backup: Pick<BackupRecord, 'uuid' | 'uploadId'>;
  server: { uuid: string };
  node: DaemonNode & Pick<NodeRecord, 'scheme' | 'fqdn' | 'daemonListen'>;
}

/** Who a download link is made for (its token names them, as the file links do). */
export interface DownloadRequester {
  user: { id: number; uuid: string };
  now: Date;
}

/**
 * Where backups' archives live (Pelican's BackupAdapter schemas): the node's backup directory (`wings`,
 * local-storage.ts) or an S3 bucket (`s3`, s3-storage.ts). The daemon writes the archive either way; the panel
 * gives out the links to it and removes it.
 */
export interface BackupStorage {
  readonly adapter: BackupAdapter;
  /** Where the browser downloads the archive (a one-time daemon link, or a presigned GET). */
  downloadUrl(location: BackupLocation, requester: DownloadRequester): Promise<string>;
  /** What the daemon restores from: null when it opens its own file, else a URL it GETs. */
  restoreUrl(location: BackupLocation): Promise<string | null>;
  /** Removes the archive; one that is already gone is not an error. */
  remove(location: BackupLocation): Promise<void>;
}
