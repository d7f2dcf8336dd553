import type { AppContext } from '@aerie/panel/app-context';
import { relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { validateRouteBody } from '@aerie/panel/http/validate';
import type { ActivityEvent } from '@aerie/shared/activity/activity-events';
import {
  chmodFilesBodySchema,
  compressFilesBodySchema,
  copyFileBodySchema,
  createFolderBodySchema,
  decompressFileBodySchema,
  deleteFilesBodySchema,
  renameFilesBodySchema,
} from '@aerie/shared/files/file-bodies';
import type { FileObject } from '@aerie/shared/files/file-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { presentFileObject } from './file.presenter';
import { untrimmed } from './untrimmed';

/**
 * Rename, copy, compress, decompress, delete, create-folder and chmod: JSON in, relayed as the daemon's body. What
 * the daemon did is logged (`server:file.*` with the `directory`, `files`, `file` or `name` upstream records).
 */
export async function fileChangeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { daemon } = ctx;
  const log = (request: FastifyRequest, event: ActivityEvent, properties: Record<string, unknown>) =>
    ctx.activity.record(ctx.db, { event, ...serverActivity(accessOf(request)), properties });

  app.put(
    '/:server/files/rename',
    { config: { permission: 'file.update', body: renameFilesBodySchema, summary: 'Rename or move files' } },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const body = validateRouteBody<typeof renameFilesBodySchema>(request, untrimmed);
      await relayDaemonErrors(daemon.forServer(node, server.uuid).files.rename(body));
      await log(request, 'server:file.rename', { directory: body.root, files: body.files });
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/files/copy',
    {
      config: { permission: 'file.create', body: copyFileBodySchema, summary: 'Copy a file next to itself' },
    },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const { location } = validateRouteBody<typeof copyFileBodySchema>(request, untrimmed);
      await relayDaemonErrors(daemon.forServer(node, server.uuid).files.copy(location));
      await log(request, 'server:file.copy', { file: location });
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/files/compress',
    {
      config: {
        permission: 'file.archive',
        body: compressFilesBodySchema,
        summary: 'Compress files into an archive',
      },
    },
    async (request): Promise<FileObject> => {
      const { server, node } = accessOf(request);
      const { root, files } = validateRouteBody<typeof compressFilesBodySchema>(request, untrimmed);
      const stat = await relayDaemonErrors(
        daemon.forServer(node, server.uuid).files.compress({ root: root ?? '/', files }),
      );
      await log(request, 'server:file.compress', { directory: root ?? '/', files, name: stat.name });
      return presentFileObject(stat, ctx.clock());
    },
  );

  app.post(
    '/:server/files/decompress',
    { config: { permission: 'file.create', body: decompressFileBodySchema, summary: 'Extract an archive' } },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const { root, file } = validateRouteBody<typeof decompressFileBodySchema>(request, untrimmed);
      await relayDaemonErrors(
        daemon.forServer(node, server.uuid).files.decompress({ root: root ?? '/', file }),
      );
      await log(request, 'server:file.decompress', { directory: root ?? '/', file });
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/files/delete',
    { config: { permission: 'file.delete', body: deleteFilesBodySchema, summary: 'Delete files' } },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const body = validateRouteBody<typeof deleteFilesBodySchema>(request, untrimmed);
      await relayDaemonErrors(daemon.forServer(node, server.uuid).files.delete(body));
      await log(request, 'server:file.delete', { directory: body.root, files: body.files });
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/files/create-folder',
    { config: { permission: 'file.create', body: createFolderBodySchema, summary: 'Create a folder' } },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const { root, name } = validateRouteBody<typeof createFolderBodySchema>(request, untrimmed);
      // Wings names the parent directory `path`.
      await relayDaemonErrors(
        daemon.forServer(node, server.uuid).files.createDirectory({ name, path: root ?? '/' }),
      );
      await log(request, 'server:file.create-directory', { directory: root ?? '/', name });
      return reply.status(204).send();
    },
  );

  app.post(
    '/:server/files/chmod',
    { config: { permission: 'file.update', body: chmodFilesBodySchema, summary: 'Change files’ modes' } },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const body = validateRouteBody<typeof chmodFilesBodySchema>(request, untrimmed);
      await relayDaemonErrors(daemon.forServer(node, server.uuid).files.chmod(body));
      await log(request, 'server:file.chmod', { directory: body.root, files: body.files });
      return reply.status(204).send();
    },
  );
}
