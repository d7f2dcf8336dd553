/**
 * Error details of the backup routes, word for word from the reference (§7.2 "Backups", §2 error table), and
 * Aerie's own texts where upstream has none.
 */
export const backupMessages = {
  /** 429 `TooManyRequestsHttpException` (creation throttle). */
  throttled: (limit: number, seconds: number) =>
    `Only ${limit} backups may be generated within a ${seconds} second span of time.`,
  /** 400 `TooManyBackupsException`. */
  tooMany: (limit: number) =>
    `Cannot create a new backup, this server has reached its limit of ${limit} backups.`,
  /** 400 `BackupLockedException`. */
  locked: 'Cannot delete a backup that is marked as locked.',
  /** 400 `BadRequestHttpException`: the server's status is not null. */
  restoreServerState: 'This server is not currently in a state that allows for a backup to be restored.',
  /** 400 `BadRequestHttpException`: the backup is running or failed. */
  restoreNotReady: 'This backup cannot be restored at this time: not completed or failed.',
  /** 400 `BadRequestHttpException`: a backup on a storage this panel has no adapter for (upstream's unknown disk). */
  unknownDisk: 'The backup requested references an unknown disk driver type and cannot be downloaded.',
  /** Why a backup is marked failed when its daemon never answered (Aerie's text, in the panel's log). */
  neverAnswered: 'The node never reported the end of this backup; it is marked as failed.',
  nodeRestarted: "The node's daemon restarted during this backup; it is marked as failed.",
} as const;

/** Error details of `/api/remote/backups/*` (the daemon's side; upstream's texts). */
export const remoteBackupMessages = {
  /** GET …/backups/{backup}?size=N without a positive whole `size`. */
  sizeRequired: 'A non-empty "size" query parameter must be provided.',
  /** GET …/backups/{backup} for an archive larger than S3 takes in one multipart upload (Aerie's text). */
  tooLarge: (maxBytes: number) =>
    `The backup is larger than the ${maxBytes} bytes one S3 multipart upload can take with the configured part size.`,
  /** GET …/backups/{backup} for a backup not on S3. */
  notS3: 'The configured backup adapter is not an S3 compatible adapter.',
  /** GET …/backups/{backup} for a backup that already ended (409). */
  alreadyCompleted: 'This backup is already in a completed state.',
  /** POST …/backups/{backup} for a backup already successful. */
  alreadySuccessful: 'Cannot update the status of a backup that is already marked as completed.',
} as const;
