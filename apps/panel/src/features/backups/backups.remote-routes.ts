import type { AppContext } from '@aerie/panel/app-context';
import { unattendedActivity } from '@aerie/panel/features/activity/activity-log';
import { remoteNodeOf } from '@aerie/panel/features/nodes/node-auth';
import { badRequest, HttpError, notFound } from '@aerie/panel/http/errors';
import { validateBody } from '@aerie/panel/http/validate';
import type { RemoteBackupPartsResponse } from '@aerie/shared/backups/backups-daemon-wire';
import { remoteBackupMessages } from '@aerie/shared/backups/backups-messages';
import { laravelBoolean } from '@aerie/shared/validation/laravel-fields';
import type { LaravelRule } from '@aerie/shared/validation/laravel-messages';
import { rule } from '@aerie/shared/validation/rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { endRestoring, findNodeBackup, recordBackupResult, setBackupUploadId } from './backups.repository';
import { S3_MAX_PARTS } from './storage/s3-storage';

/** The most an S3 part's ETag is: a quoted MD5, or a little more for other stores. */
const ETAG_MAX = 1024;

/**
 * `POST /api/remote/backups/{backup}` (Wings' report at the end of a backup): `successful` required|boolean;
 * `checksum` (hex), `checksum_type`, `size` (bytes) and `parts` (S3: at most 10,000 `{etag, part_number}`).
 */
const backupStatusBody = z.object({
  successful: laravelBoolean(),
  checksum: z
    .string({ error: 'string' satisfies LaravelRule })
    .max(128, rule('max'))
    .regex(/^[0-9a-fA-F]*$/, rule('regex'))
    .nullish(),
  checksum_type: z
    .string({ error: 'string' satisfies LaravelRule })
    .max(16, rule('max'))
    .regex(/^[a-z0-9]+$/, rule('regex'))
    .nullish(),
  size: z
    .number({ error: 'integer' satisfies LaravelRule })
    .int(rule('integer'))
    .min(0, rule('min'))
    .max(Number.MAX_SAFE_INTEGER, rule('max'))
    .nullish(),
  parts: z
    .array(
      z.object({
        etag: z
          .string({ error: 'string' satisfies LaravelRule })
          .min(1, rule('required'))
          .max(ETAG_MAX, rule('max')),
        part_number: z
          .number({ error: 'integer' satisfies LaravelRule })
          .int(rule('integer'))
          .min(1, rule('min'))
          .max(S3_MAX_PARTS, rule('max')),
      }),
      { error: 'array' satisfies LaravelRule },
    )
    .max(S3_MAX_PARTS, rule('max'))
    .nullish(),
});

/** `POST /api/remote/backups/{backup}/restore`: `successful` required|boolean. */
const restoreStatusBody = z.object({ successful: laravelBoolean() });

/**
 * /api/remote/backups/*: what a daemon reports about backups (reference/wings.md §1.4, §7), behind the remote
 * surface's node token. A node only reaches the backups of its own servers: another node's backup is a 404, like
 * one that does not exist (CVE-2026-26016).
 */
export async function backupsRemoteRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db, backups, clock, log, activity } = ctx;
  const backupOf = async (request: FastifyRequest) => {
    const found = await findNodeBackup(
      db,
      remoteNodeOf(request).id,
      (request.params as { uuid: string }).uuid,
    );
    if (!found) throw notFound();
    return found;
  };

  /** S3 only: starts the multipart upload and answers one presigned part URL per part of `size` bytes. */
  app.get('/backups/:uuid', async (request): Promise<RemoteBackupPartsResponse> => {
    const { backup, server } = await backupOf(request);
    const raw = (request.query as { size?: unknown }).size;
    const size = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : 0;
    if (!Number.isSafeInteger(size) || size <= 0) throw badRequest(remoteBackupMessages.sizeRequired);
    if (backup.completedAt !== null) {
      throw new HttpError(409, 'ConflictHttpException', remoteBackupMessages.alreadyCompleted);
    }
    const s3 = backups.s3;
    if (backup.disk !== 's3' || !s3) throw badRequest(remoteBackupMessages.notS3);
    const parts = s3.partCount(size);
    if (parts === null) {
      throw badRequest(remoteBackupMessages.tooLarge(S3_MAX_PARTS * ctx.config.backups.maxPartSize));
    }
    const location = { backup, server };
    // A node asking again (it retries) starts over: the upload it was given before is dropped.
    if (backup.uploadId) {
      await s3
        .abortUpload(location, backup.uploadId)
        .catch((error: unknown) =>
          log.warn({ err: error, backup: backup.uuid }, 'Could not abort the previous S3 upload'),
        );
    }
    const upload = await s3.startUpload(location, parts);
    await setBackupUploadId(db, backup.id, upload.uploadId, clock());
    return { parts: upload.parts, part_size: upload.partSize };
  });

  /**
   * The end of a backup: successful with its checksum (`sha1:<hex>`) and size, or failed (unlocked, so it can be
   * deleted). On S3 the upload is completed with the reported parts, or aborted.
   */
  app.post('/backups/:uuid', async (request, reply) => {
    const { backup, server } = await backupOf(request);
    const body = validateBody(backupStatusBody, request.body);
    if (backup.isSuccessful) throw badRequest(remoteBackupMessages.alreadySuccessful);
    let successful = body.successful;
    if (backup.disk === 's3') {
      const { s3 } = backups;
      const location = { backup, server };
      if (s3 && backup.uploadId && successful && body.parts && body.parts.length > 0) {
        await s3.completeUpload(location, backup.uploadId, body.parts);
      } else {
        // Nothing to complete: no upload was started, or the node reported no part of it.
        successful = false;
        if (s3 && backup.uploadId) await s3.abortUpload(location, backup.uploadId);
      }
    }
    const checksum = body.checksum ? `${body.checksum_type ?? 'sha1'}:${body.checksum.toLowerCase()}` : null;
    await db.transaction().execute(async (tx) => {
      await recordBackupResult(tx, backup, { successful, checksum, bytes: body.size ?? 0 }, clock());
      await activity.record(tx, {
        event: successful ? 'server:backup.complete' : 'server:backup.fail',
        ...unattendedActivity(server),
        properties: { name: backup.name },
      });
    });
    return reply.status(204).send();
  });

  /** The end of a restore: the server's `restoring_backup` status is cleared, whatever the outcome. */
  app.post('/backups/:uuid/restore', async (request, reply) => {
    const { backup, server } = await backupOf(request);
    const body = validateBody(restoreStatusBody, request.body);
    await db.transaction().execute(async (tx) => {
      await endRestoring(tx, server.id, clock());
      await activity.record(tx, {
        event: body.successful ? 'server:backup.restore-complete' : 'server:backup.restore-failed',
        ...unattendedActivity(server),
        properties: { name: backup.name },
      });
    });
    return reply.status(204).send();
  });
}
