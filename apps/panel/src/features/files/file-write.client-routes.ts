import type { Readable } from 'node:stream';
import type { AppContext } from '@aerie/panel/app-context';
import type { DaemonUpload } from '@aerie/panel/daemon-client/daemon-client';
import { relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { HttpError } from '@aerie/panel/http/errors';
import { validateRouteQuery } from '@aerie/panel/http/validate';
import { fileQuerySchema } from '@aerie/shared/files/file-bodies';
import { fileLimits, fileMessages } from '@aerie/shared/files/file-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readAtMost } from './bounded-body';
import { untrimmed } from './untrimmed';

const tooLarge = () => new HttpError(413, 'PostTooLargeException', fileMessages.writeTooLarge);

/**
 * `POST …/files/write?file=`: the raw request body, of any content type (the SPA sends text/plain, other clients
 * JSON or octet-stream), becomes the file. This scope takes every body unparsed, as a stream, so nothing is read
 * before the access checks pass, and the bytes go to the daemon as they arrive, at most
 * `fileLimits.writeMaxBytes` (413 above).
 */
export async function fileWriteRoute(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { daemon } = ctx;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // An empty or missing Content-Type (jspteroapi's writeFile sends an empty one) is a body like any other here,
  // where Fastify would refuse it with 415 before the catch-all parser is asked.
  app.addHook('onRequest', async (request) => {
    if (!request.headers['content-type']) request.headers['content-type'] = 'application/octet-stream';
  });

  app.post(
    '/:server/files/write',
    {
      config: {
        permission: 'file.create',
        query: fileQuerySchema,
        summary: 'Write the request body to a file',
      },
    },
    async (request, reply) => {
      const { server, node } = accessOf(request);
      const { file } = validateRouteQuery<typeof fileQuerySchema>(request, untrimmed);
      const contents = await writeBody(request);
      await relayDaemonErrors(daemon.forServer(node, server.uuid).files.write(file, contents));
      await ctx.activity.record(ctx.db, {
        event: 'server:file.write',
        ...serverActivity(accessOf(request)),
        properties: { file },
      });
      return reply.status(204).send();
    },
  );
}

/**
 * The body with the length the daemon needs up front: the announced Content-Length (Node's parser holds the
 * client to it), or, for a chunked body, the length found by reading it (bounded) first. No body: an empty file.
 */
async function writeBody(request: FastifyRequest): Promise<DaemonUpload | Buffer> {
  const stream = request.body as Readable | undefined;
  if (!stream) return Buffer.alloc(0);
  const announced = request.headers['content-length'];
  if (announced === undefined) return readAtMost(stream, fileLimits.writeMaxBytes, tooLarge);
  const length = Number(announced);
  if (length > fileLimits.writeMaxBytes) throw tooLarge();
  return { stream, length };
}
