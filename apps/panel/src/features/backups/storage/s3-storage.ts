import type { BackupConfig } from '@aerie/panel/config/load-config';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BackupLocation, BackupStorage } from './backup-storage';

/** Lifetime of a presigned download (and restore) URL (reference §0: 5 minutes). */
export const S3_DOWNLOAD_TTL_SECONDS = 5 * 60;

/** S3 takes at most this many parts in one multipart upload. */
export const S3_MAX_PARTS = 10_000;

/** The archive's content type: the daemon refuses to restore anything else (wings.md §7). */
const ARCHIVE_TYPE = 'application/x-gzip';

/**
 * Backups in an S3 bucket (upstream's `s3` adapter), at `<server uuid>/<backup uuid>.tar.gz`. The node makes the
 * archive, asks the panel for one presigned UploadPart URL per part (`startUpload`), PUTs the parts and reports
 * their ETags, with which the panel completes the upload (or aborts it when the backup failed). Downloads and
 * restores read it through a presigned GET; the panel deletes the object itself.
 */
export class S3BackupStorage implements BackupStorage {
  readonly adapter = 's3' as const;
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(
    s3: NonNullable<BackupConfig['s3']>,
    private readonly options: { maxPartSize: number; presignedUrlLifespanSeconds: number },
  ) {
    this.#bucket = s3.bucket;
    this.#client = new S3Client({
      region: s3.region,
      ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
      forcePathStyle: s3.forcePathStyle,
      ...(s3.credentials ? { credentials: s3.credentials } : {}),
      // No checksum of an empty body in presigned part URLs: the node sends the bytes, the URL only names the part.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** The object's key. */
  key(location: Pick<BackupLocation, 'backup' | 'server'>): string {
    return `${location.server.uuid}/${location.backup.uuid}.tar.gz`;
  }

  downloadUrl(location: BackupLocation): Promise<string> {
    return this.#presignedGet(location);
  }

  restoreUrl(location: BackupLocation): Promise<string> {
    return this.#presignedGet(location);
  }

  async remove(location: BackupLocation): Promise<void> {
    if (location.backup.uploadId) await this.abortUpload(location, location.backup.uploadId);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.key(location) }));
  }

  /** Parts an archive of `size` bytes is uploaded in; more than S3 takes is null. */
  partCount(size: number): number | null {
    const count = Math.ceil(size / this.options.maxPartSize);
    return count >= 1 && count <= S3_MAX_PARTS ? count : null;
  }

  /**
   * CreateMultipartUpload, then one presigned UploadPart URL per part (part 1 first), each valid for
   * BACKUP_PRESIGNED_URL_LIFESPAN.
   */
  async startUpload(
    location: Pick<BackupLocation, 'backup' | 'server'>,
    parts: number,
  ): Promise<{ uploadId: string; parts: string[]; partSize: number }> {
    const Key = this.key(location);
    const created = await this.#client.send(
      new CreateMultipartUploadCommand({ Bucket: this.#bucket, Key, ContentType: ARCHIVE_TYPE }),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error('The S3 store started no multipart upload');
    const urls: string[] = [];
    for (let part = 1; part <= parts; part++) {
      urls.push(
        await getSignedUrl(
          this.#client,
          new UploadPartCommand({ Bucket: this.#bucket, Key, UploadId: uploadId, PartNumber: part }),
          { expiresIn: this.options.presignedUrlLifespanSeconds },
        ),
      );
    }
    return { uploadId, parts: urls, partSize: this.options.maxPartSize };
  }

  /** CompleteMultipartUpload with the parts the node uploaded, in part order. */
  async completeUpload(
    location: Pick<BackupLocation, 'backup' | 'server'>,
    uploadId: string,
    parts: { etag: string; part_number: number }[],
  ): Promise<void> {
    await this.#client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.#bucket,
        Key: this.key(location),
        UploadId: uploadId,
        MultipartUpload: {
          Parts: [...parts]
            .sort((a, b) => a.part_number - b.part_number)
            .map((part) => ({ ETag: part.etag, PartNumber: part.part_number })),
        },
      }),
    );
  }

  /** AbortMultipartUpload: the parts uploaded so far are dropped. One already ended is not an error. */
  async abortUpload(location: Pick<BackupLocation, 'backup' | 'server'>, uploadId: string): Promise<void> {
    try {
      await this.#client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: this.key(location),
          UploadId: uploadId,
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchUpload') return;
      throw error;
    }
  }

  close(): void {
    this.#client.destroy();
  }

  #presignedGet(location: BackupLocation): Promise<string> {
    return getSignedUrl(
      this.#client,
      new GetObjectCommand({ Bucket: this.#bucket, Key: this.key(location) }),
      { expiresIn: S3_DOWNLOAD_TTL_SECONDS },
    );
  }
}
