import type { AppContext } from '@aerie/panel/app-context';
import { DaemonUnreachableError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError, relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { HttpError } from '@aerie/panel/http/errors';
import { validateRouteQuery } from '@aerie/panel/http/validate';
import { directoryQuerySchema, fileQuerySchema } from '@aerie/shared/files/file-bodies';
import type { FileListResponse, SignedUrlResponse } from '@aerie/shared/files/file-wire';
import { fileLimits, fileMessages } from '@aerie/shared/files/file-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readAtMost } from './bounded-body';
import { presentFileList } from './file.presenter';
import { fileDownloadUrl, fileUploadUrl } from './file-urls';
import { untrimmed } from './untrimmed';

const tooLargeToEdit = () => new HttpError(400, 'FileSizeTooLargeException', fileMessages.tooLargeToEdit);

const signedUrl = (url: string): SignedUrlResponse => ({ object: 'signed_url', attributes: { url } });

/** GET list, contents, download and upload; reading a file and signing its download are logged. */
export async function fileReadRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { daemon } = ctx;
  const signing = (request: FastifyRequest) => {
    const { server, node, user } = accessOf(request);
    return {
      node,
      nodeToken: ctx.secretBox.open(node.daemonToken),
      user,
      serverUuid: server.uuid,
      issuer: ctx.config.appUrl,
      now: ctx.clock(),
    };
  };

  app.get(
    '/:server/files/list',
    { config: { permission: 'file.read', query: directoryQuerySchema, summary: 'List a directory' } },
    async (request): Promise<FileListResponse> => {
      const { server, node } = accessOf(request);
      const { directory } = validateRouteQuery<typeof directoryQuerySchema>(request, untrimmed);
      const stats = await relayDaemonErrors(daemon.forServer(node, server.uuid).files.list(directory ?? '/'));
      return presentFileList(stats, ctx.clock());
    },
  );

  app.get(
    '/:server/files/contents',
    {
      config: {
        permission: 'file.read-content',
        query: fileQuerySchema,
        summary: 'Read a file’s text (at most the editor’s limit)',
      },
    },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const { file } = validateRouteQuery<typeof fileQuerySchema>(request, untrimmed);
      const contents = await relayDaemonErrors(daemon.forServer(node, server.uuid).files.contents(file));
      await ctx.activity
        .recordRead(ctx.db, {
          event: 'server:file.read',
          ...serverActivity(accessOf(request)),
          properties: { file },
        })
        .catch((error: unknown) => {
          // Nobody will read the daemon's answer now: let its connection go.
          contents.body.destroy();
          throw error;
        });
      reply.header('content-type', 'text/plain; charset=utf-8');
      const declared = contents.headers.get('content-length');
      if (declared === null) {
        // No length announced: read up to the limit, so the editor never gets more than it may show.
        const bytes = await readAtMost(contents.body, fileLimits.editorMaxBytes, tooLargeToEdit).catch(
          (error: unknown) => {
            throw error instanceof HttpError
              ? error
              : daemonHttpError(new DaemonUnreachableError(String(error)));
          },
        );
        return reply.send(bytes);
      }
      // Refused on the announced length alone: the body is dropped unread (the connection to the daemon closes).
      if (Number(declared) > fileLimits.editorMaxBytes) {
        contents.body.destroy();
        throw tooLargeToEdit();
      }
      return reply.header('content-length', declared).send(contents.body);
    },
  );

  app.get(
    '/:server/files/download',
    {
      config: {
        permission: 'file.read-content',
        query: fileQuerySchema,
        summary: 'A signed download URL for a file',
      },
    },
    async (request): Promise<SignedUrlResponse> => {
      const { file } = validateRouteQuery<typeof fileQuerySchema>(request, untrimmed);
      const url = await fileDownloadUrl({ ...signing(request), file });
      await ctx.activity.recordRead(ctx.db, {
        event: 'server:file.download',
        ...serverActivity(accessOf(request)),
        properties: { file },
      });
      return signedUrl(url);
    },
  );

  app.get(
    '/:server/files/upload',
    { config: { permission: 'file.create' } },
    async (request): Promise<SignedUrlResponse> => signedUrl(await fileUploadUrl(signing(request))),
  );
}
