import { HttpError, NOT_FOUND_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import { serverOf } from '@aerie/daemon/http-kit/route-helpers';
import {
  INSTALLING_MESSAGE,
  RESTORING_MESSAGE,
  TRANSFERRING_MESSAGE,
} from '@aerie/daemon/server/managed-server';
import type { DaemonBackupRequest, DaemonRestoreRequest } from '@aerie/shared/backups/backups-daemon-wire';
import type { FastifyInstance } from 'fastify';
import type { BackupService } from './backup-service';
import { isBackupUuid } from './backup-service';

export const BACKUP_BODY_MESSAGES = {
  adapter: 'The adapter field must be one of "wings", "s3".',
  uuid: 'The uuid field must be a valid UUID.',
  ignore: 'The ignore field must be a string.',
  truncate: 'The truncate_directory field must be a boolean.',
  downloadUrl: 'The download_url field must be an http(s) URL when restoring from s3 or from another node.',
  running: 'A backup with this uuid is already being created.',
} as const;

const ADAPTERS = ['wings', 's3'] as const;
const isAdapter = (value: unknown): value is DaemonBackupRequest['adapter'] =>
  ADAPTERS.includes(value as (typeof ADAPTERS)[number]);

/**
 * The panel's backup routes of one server (`:server` already resolved, node token checked):
 * `POST …/backup`, `POST …/backup/:backup/restore` (wings.md §1.3, §7); the delete is backupDeleteRoute's.
 */
export async function backupRoutes(scope: FastifyInstance, backups: BackupService): Promise<void> {
  scope.post<{ Body: Partial<DaemonBackupRequest> | undefined }>(
    '/api/servers/:server/backup',
    async (request, reply) => {
      const server = serverOf(request);
      const body = request.body ?? {};
      if (!isAdapter(body.adapter)) throw new HttpError(422, BACKUP_BODY_MESSAGES.adapter);
      if (typeof body.uuid !== 'string' || !isBackupUuid(body.uuid))
        throw new HttpError(422, BACKUP_BODY_MESSAGES.uuid);
      const ignore = body.ignore ?? '';
      if (typeof ignore !== 'string') throw new HttpError(422, BACKUP_BODY_MESSAGES.ignore);
      if (server.isRestoring) throw new HttpError(409, RESTORING_MESSAGE);
      if (backups.isRunning(body.uuid)) throw new HttpError(409, BACKUP_BODY_MESSAGES.running);
      backups.start(server, { adapter: body.adapter, uuid: body.uuid, ignore });
      return reply.status(202).send();
    },
  );

  scope.post<{ Params: { backup: string }; Body: Partial<DaemonRestoreRequest> | undefined }>(
    '/api/servers/:server/backup/:backup/restore',
    async (request, reply) => {
      const server = serverOf(request);
      const { backup } = request.params;
      if (!isBackupUuid(backup)) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const body = request.body ?? {};
      if (!isAdapter(body.adapter)) throw new HttpError(422, BACKUP_BODY_MESSAGES.adapter);
      const truncate = body.truncate_directory ?? false;
      if (typeof truncate !== 'boolean') throw new HttpError(422, BACKUP_BODY_MESSAGES.truncate);
      const url = body.download_url ?? null;
      // wings: null for a backup on this node, or the signed download of the node that keeps it (the server moved).
      const remote = body.adapter === 's3' || url !== null;
      if (remote && (typeof url !== 'string' || !/^https?:\/\//i.test(url))) {
        throw new HttpError(422, BACKUP_BODY_MESSAGES.downloadUrl);
      }
      if (server.isInstalling) throw new HttpError(409, INSTALLING_MESSAGE);
      if (server.isRestoring) throw new HttpError(409, RESTORING_MESSAGE);
      if (server.isTransferring) throw new HttpError(409, TRANSFERRING_MESSAGE);
      if (!remote) {
        // As Wings: a local backup that is not here is 404 now, not a failed restore later.
        const archive = await backups.openArchive(backup);
        if (!archive) throw new HttpError(404, NOT_FOUND_MESSAGE);
        await archive.handle.close();
      }
      backups.restore(server, backup, {
        adapter: body.adapter,
        truncate_directory: truncate,
        download_url: remote ? url : null,
      });
      return reply.status(202).send();
    },
  );
}

/**
 * `DELETE /api/servers/:server/backup/:backup`, mounted beside the server scope rather than in it: a local backup
 * stays on the node that made it when its server moves to another, and must still be removable here.
 */
export async function backupDeleteRoute(scope: FastifyInstance, backups: BackupService): Promise<void> {
  scope.delete<{ Params: { backup: string } }>(
    '/api/servers/:server/backup/:backup',
    async (request, reply) => {
      const { backup } = request.params;
      if (!isBackupUuid(backup) || !(await backups.delete(backup)))
        throw new HttpError(404, NOT_FOUND_MESSAGE);
      return reply.status(204).send();
    },
  );
}
