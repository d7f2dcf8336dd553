import type { Socket } from 'node:net';
import { attachmentDisposition } from '@aerie/daemon/http-kit/content-disposition';
import { HttpError, NOT_FOUND_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import type { SignedFileAccess } from '@aerie/daemon/http-kit/signed-file-token';
import type { FastifyInstance } from 'fastify';
import type { BackupService } from './backup-service';

/**
 * `GET /download/backup?token=`: a panel-signed, one-time `backup_download` token (claims `server_uuid`,
 * `backup_uuid`, `unique_id`) opens `<backup uuid>.tar.gz` of the backup directory as an attachment. The token
 * checks (signature, purpose, denylist, suspension, one use) are `authorise`'s; the server may have moved to
 * another node since (its local backups stay here).
 */
export async function backupDownloadRoute(
  scope: FastifyInstance,
  options: {
    backups: BackupService;
    /** Checks the token; a valid one proves the connection (see connection-guard.ts). */
    authorise: (token: string | undefined, socket: Socket) => Promise<Pick<SignedFileAccess, 'claims'>>;
  },
): Promise<void> {
  scope.get<{ Querystring: { token?: string } }>('/download/backup', async (request, reply) => {
    const { claims } = await options.authorise(request.query.token, request.raw.socket);
    const backup = (claims.backup_uuid ?? '').toLowerCase();
    const archive = await options.backups.openArchive(backup);
    if (!archive) throw new HttpError(404, NOT_FOUND_MESSAGE);
    if (archive.size === 0) await archive.handle.close();
    reply.header('content-type', 'application/octet-stream');
    reply.header('content-length', archive.size);
    reply.header('content-disposition', attachmentDisposition(`${backup}.tar.gz`));
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(archive.size === 0 ? '' : archive.handle.createReadStream());
  });
}
