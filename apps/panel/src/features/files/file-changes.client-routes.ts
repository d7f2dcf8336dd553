import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { validateBody } from '@aerie/panel/http/validate';
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
import type { FastifyInstance } from 'fastify';
import { presentFileObject } from './file.presenter';
import { untrimmed } from './untrimmed';

/** Rename, copy, compress, decompress, delete, create-folder and chmod: JSON in, relayed as the daemon's body. */
export function registerFileChangeRoutes(app: FastifyInstance, daemon: DaemonClient) {
  const { ctx } = app;

  app.put('/:server/files/rename', { config: { permission: 'file.update' } }, async (request, reply) => {
    const { server, node } = accessOf(request);
    const body = validateBody(renameFilesBodySchema, request.body, untrimmed);
    await relayDaemonErrors(daemon.forServer(node, server.uuid).files.rename(body));
    return reply.status(204).send();
  });

  app.post('/:server/files/copy', { config: { permission: 'file.create' } }, async (request, reply) => {
    const { server, node } = accessOf(request);
    const { location } = validateBody(copyFileBodySchema, request.body, untrimmed);
    await relayDaemonErrors(daemon.forServer(node, server.uuid).files.copy(location));
    return reply.status(204).send();
  });

  app.post(
    '/:server/files/compress',
    { config: { permission: 'file.archive' } },
    async (request): Promise<FileObject> => {
      const { server, node } = accessOf(request);
      const { root, files } = validateBody(compressFilesBodySchema, request.body, untrimmed);
      const stat = await relayDaemonErrors(
        daemon.forServer(node, server.uuid).files.compress({ root: root ?? '/', files }),
      );
      return presentFileObject(stat, ctx.clock());
    },
  );

  app.post('/:server/files/decompress', { config: { permission: 'file.create' } }, async (request, reply) => {
    const { server, node } = accessOf(request);
    const { root, file } = validateBody(decompressFileBodySchema, request.body, untrimmed);
    await relayDaemonErrors(
      daemon.forServer(node, server.uuid).files.decompress({ root: root ?? '/', file }),
    );
    return reply.status(204).send();
  });

  app.post('/:server/files/delete', { config: { permission: 'file.delete' } }, async (request, reply) => {
    const { server, node } = accessOf(request);
    const body = validateBody(deleteFilesBodySchema, request.body, untrimmed);
    await relayDaemonErrors(daemon.forServer(node, server.uuid).files.delete(body));
    return reply.status(204).send();
  });

  app.post(
    '/:server/files/create-folder',
    { config: { permission: 'file.create' } },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const { root, name } = validateBody(createFolderBodySchema, request.body, untrimmed);
      // Wings names the parent directory `path`.
      await relayDaemonErrors(
        daemon.forServer(node, server.uuid).files.createDirectory({ name, path: root ?? '/' }),
      );
      return reply.status(204).send();
    },
  );

  app.post('/:server/files/chmod', { config: { permission: 'file.update' } }, async (request, reply) => {
    const { server, node } = accessOf(request);
    const body = validateBody(chmodFilesBodySchema, request.body, untrimmed);
    await relayDaemonErrors(daemon.forServer(node, server.uuid).files.chmod(body));
    return reply.status(204).send();
  });
}
