import type { AppContext } from '@aerie/panel/app-context';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import { presentPagination } from '@aerie/panel/http/pagination';
import { validateRouteBody } from '@aerie/panel/http/validate';
import {
  createBackupBodySchema,
  ignoreRules,
  restoreBackupBodySchema,
} from '@aerie/shared/backups/backups-bodies';
import {
  type BackupDownloadResponse,
  type BackupListResponse,
  type BackupResponse,
  backupPageSize,
} from '@aerie/shared/backups/backups-wire';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { presentBackup } from './backup.presenter';
import type { BackupRecord } from './backup-record';
import { findServerBackup } from './backups.repository';

/** `{backup}` among the server's own backups, not deleted (404 before any other check, as upstream binds it). */
export const backupChild: FastifyContextConfig['serverChild'] = (db, server, params) =>
  findServerBackup(db, server.id, params.backup);

/** A whole number ≥ 1 from the query, or the fallback (Laravel reads anything else as its default). */
function positive(raw: unknown, fallback: number): number {
  const value = (Array.isArray(raw) ? raw.at(-1) : raw) as unknown;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim())) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

/**
 * `/api/client/servers/{server}/backups*` (reference §7.2 "Backups"). Each route names its permission; the access
 * hook answers 404 for another server's (or a deleted) backup before 409 and 403.
 */
export async function backupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { backups } = ctx;
  const base = '/:server/backups';

  app.get(
    base,
    {
      config: {
        permission: 'backup.read',
        summary: 'A page of the server’s backups (page, per_page 20 by default, at most 50) and backup_count',
      },
    },
    async (request): Promise<BackupListResponse> => {
      const query = request.query as Record<string, unknown>;
      const page = positive(query.page, 1);
      const perPage = Math.min(positive(query.per_page, backupPageSize.default), backupPageSize.max);
      const result = await backups.list(accessOf(request), page, perPage);
      return {
        object: 'list',
        data: result.records.map(presentBackup),
        meta: {
          ...presentPagination(request, {
            total: result.total,
            count: result.records.length,
            perPage,
            currentPage: page,
          }),
          backup_count: result.backupCount,
        },
      };
    },
  );

  app.post(
    base,
    {
      config: {
        permission: 'backup.create',
        body: createBackupBodySchema,
        summary:
          'Start a backup (2 per 600 s, within the backup limit; is_locked only with backup.delete; ignored: one rule a line)',
      },
    },
    async (request): Promise<BackupResponse> => {
      const body = validateRouteBody<typeof createBackupBodySchema>(request);
      const backup = await backups.createFromRoute(accessOf(request), {
        name: body.name,
        ignored: ignoreRules(body.ignored),
        is_locked: body.is_locked,
      });
      return presentBackup(backup);
    },
  );

  app.get(
    `${base}/:backup`,
    { config: { permission: 'backup.read', serverChild: backupChild, summary: 'One backup' } },
    async (request): Promise<BackupResponse> =>
      presentBackup(await backups.view(childOf<BackupRecord>(request))),
  );

  app.get(
    `${base}/:backup/download`,
    {
      config: {
        permission: 'backup.download',
        serverChild: backupChild,
        summary: 'A download link: the node’s, one-time, 15 minutes; or a presigned S3 GET, 5 minutes',
      },
    },
    async (request): Promise<BackupDownloadResponse> => ({
      object: 'signed_url',
      attributes: { url: await backups.downloadUrl(accessOf(request), childOf<BackupRecord>(request)) },
    }),
  );

  app.post(
    `${base}/:backup/lock`,
    {
      config: {
        permission: 'backup.delete',
        serverChild: backupChild,
        summary: 'Lock or unlock the backup (a locked successful backup cannot be deleted)',
      },
    },
    async (request): Promise<BackupResponse> =>
      presentBackup(await backups.toggleLock(accessOf(request), childOf<BackupRecord>(request))),
  );

  app.post(
    `${base}/:backup/restore`,
    {
      config: {
        permission: 'backup.restore',
        serverChild: backupChild,
        body: restoreBackupBodySchema,
        summary:
          'Restore the backup (truncate: remove every file first); the server is restoring_backup until done',
      },
    },
    async (request, reply) => {
      const body = validateRouteBody<typeof restoreBackupBodySchema>(request);
      await backups.restore(accessOf(request), childOf<BackupRecord>(request), body.truncate);
      return reply.status(204).send();
    },
  );

  app.delete(
    `${base}/:backup`,
    {
      config: {
        permission: 'backup.delete',
        serverChild: backupChild,
        summary: 'Delete the backup and its archive (not a locked successful one)',
      },
    },
    async (request, reply) => {
      await backups.remove(accessOf(request), childOf<BackupRecord>(request));
      return reply.status(204).send();
    },
  );
}
