import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { S3TestServer } from '@aerie/daemon/testing/s3-server';
import type { RemoteBackupPartsResponse } from '@aerie/shared/backups/backups-daemon-wire';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

/** The store as the panel and the baseline reach it: moto on loopback, path-style. */
export function s3Client(server: S3TestServer): S3Client {
  return new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    // Plain PUTs as the daemon sends them: no CRC32 of every body computed in JavaScript (the SDK's default since
    // 3.729 when the store supports it), which would make the baseline slower than the upload itself.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
}

/**
 * What the panel answers to the daemon's `GET /api/remote/backups/{uuid}?size=N`: a multipart upload created with
 * the store, one presigned UploadPart URL per part. `complete` finishes it with the ETags the daemon reported.
 */
export function panelS3(client: S3Client, bucket: string, partSize: number) {
  const uploads = new Map<string, string>();
  return {
    async parts(key: string, size: number): Promise<RemoteBackupPartsResponse> {
      const { UploadId } = await client.send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: 'application/x-gzip' }),
      );
      uploads.set(key, UploadId as string);
      const count = Math.max(1, Math.ceil(size / partSize));
      const parts = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          getSignedUrl(
            client,
            new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: i + 1 }),
            { expiresIn: 3600 },
          ),
        ),
      );
      return { parts, part_size: partSize };
    },
    async complete(key: string, parts: { etag: string; part_number: number }[]): Promise<void> {
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploads.get(key),
          MultipartUpload: {
            Parts: parts.map((part) => ({ ETag: part.etag, PartNumber: part.part_number })),
          },
        }),
      );
    },
    download(key: string): Promise<string> {
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: 300 });
    },
  };
}

/**
 * The baseline upload: the same file sent with the SDK's own multipart calls, the same part size, one part after
 * another as the daemon sends them.
 */
export async function sdkUpload(
  client: S3Client,
  bucket: string,
  key: string,
  file: string,
  partSize: number,
): Promise<void> {
  const size = (await stat(file)).size;
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: 'application/x-gzip' }),
  );
  const parts: { ETag: string; PartNumber: number }[] = [];
  const count = Math.max(1, Math.ceil(size / partSize));
  for (let number = 1; number <= count; number++) {
    const start = (number - 1) * partSize;
    const end = Math.min(size, start + partSize);
    const answer = await client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        PartNumber: number,
        ContentLength: end - start,
        Body: createReadStream(file, { start, end: end - 1 }),
      }),
    );
    parts.push({ ETag: answer.ETag as string, PartNumber: number });
  }
  await client.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: parts },
    }),
  );
}

/** The baseline download: GetObject with the SDK, streamed to a file. */
export async function sdkDownload(
  client: S3Client,
  bucket: string,
  key: string,
  file: string,
): Promise<void> {
  const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  await pipeline(answer.Body as NodeJS.ReadableStream, createWriteStream(file));
}
