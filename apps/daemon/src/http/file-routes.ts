import type { Readable } from 'node:stream';
import { attachmentDisposition } from '@aerie/daemon/http-kit/content-disposition';
import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import { serverOf } from '@aerie/daemon/http-kit/route-helpers';
import type { DaemonFileStat } from '@aerie/shared/files/file-wire';
import type { FastifyInstance } from 'fastify';
import { fileBody } from './file-bodies';
import { type ListPageQuery, listPage } from './list-page';
import { drainRefusedBody } from './refused-body';

export const CONTENT_LENGTH_REQUIRED_MESSAGE = 'A Content-Length header is required to write a file.';

/** A query flag as Wings reads `?download=`: present and not an explicit no. */
const isSet = (value: string | undefined) =>
  value !== undefined && value !== '' && value !== '0' && value !== 'false';

/**
 * Wings' files API (wings.md §1.3, §6) over the server's jailed filesystem: `/api/servers/:server/files/*`.
 * Mounted where `:server` is already resolved (404 otherwise) behind the node token. Refusals of the filesystem
 * are FilesystemErrors, answered by the app's error handler with their status and text.
 */
export async function fileRoutes(scope: FastifyInstance): Promise<void> {
  /**
   * A plain array as Wings answers, but at most a page: the first 1000 entries, or `?page=&per_page=` (list-page.ts).
   * The walk stops when the caller goes away (the panel gave up, the browser left).
   */
  scope.get<{ Querystring: { directory?: string } & ListPageQuery }>(
    '/api/servers/:server/files/list-directory',
    async (request, reply): Promise<DaemonFileStat[] | undefined> => {
      const page = listPage(request.query);
      const files = await serverOf(request).files();
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);
      try {
        return await files.list(request.query.directory ?? '/', { ...page, signal: gone.signal });
      } catch (error) {
        // Nobody is left to answer: 499 (nginx's "client closed request") for the log, not a 500.
        if (gone.signal.aborted) return reply.status(499).send();
        throw error;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  scope.get<{ Querystring: { file?: string; download?: string } }>(
    '/api/servers/:server/files/contents',
    async (request, reply) => {
      const files = await serverOf(request).files();
      const { stream, size, entry } = await files.readFile(request.query.file ?? '');
      reply.header('x-mime-type', entry.mime);
      reply.header('content-length', size);
      // Raw bytes whatever they are: the panel reads X-Mime-Type, nothing should render or sniff them.
      reply.header('content-type', 'application/octet-stream');
      reply.header('x-content-type-options', 'nosniff');
      if (isSet(request.query.download))
        reply.header('content-disposition', attachmentDisposition(entry.name));
      return reply.send(stream);
    },
  );

  scope.put('/api/servers/:server/files/rename', async (request, reply) => {
    const body = fileBody('rename', request.body);
    await (await serverOf(request).files()).rename(body.root, body.files);
    return reply.status(204).send();
  });

  scope.post('/api/servers/:server/files/copy', async (request, reply) => {
    const body = fileBody('copy', request.body);
    await (await serverOf(request).files()).copy(body.location);
    return reply.status(204).send();
  });

  scope.post('/api/servers/:server/files/create-directory', async (request, reply) => {
    const body = fileBody('createDirectory', request.body);
    await (await serverOf(request).files()).createDirectory(body.name, body.path);
    return reply.status(204).send();
  });

  scope.post('/api/servers/:server/files/delete', async (request, reply) => {
    const body = fileBody('delete', request.body);
    await (await serverOf(request).files()).delete(body.root, body.files);
    return reply.status(204).send();
  });

  scope.post('/api/servers/:server/files/compress', async (request): Promise<DaemonFileStat> => {
    const body = fileBody('compress', request.body);
    return (await serverOf(request).files()).archives.compress(
      body.root,
      body.files,
      body.extension ?? 'tar.gz',
    );
  });

  scope.post('/api/servers/:server/files/decompress', async (request, reply) => {
    const body = fileBody('decompress', request.body);
    await (await serverOf(request).files()).archives.decompress(body.root, body.file);
    return reply.status(204).send();
  });

  scope.post('/api/servers/:server/files/chmod', async (request, reply) => {
    const body = fileBody('chmod', request.body);
    await (await serverOf(request).files()).chmod(body.root, body.files);
    return reply.status(204).send();
  });

  await scope.register(writeRoute);
}

/**
 * `POST …/files/write?file=`: the body is the file, whatever its content type, streamed into the filesystem
 * (never buffered: no body limit applies). Its own scope, so the catch-all parser leaves the JSON routes alone.
 */
async function writeRoute(scope: FastifyInstance): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  scope.post<{ Querystring: { file?: string } }>(
    '/api/servers/:server/files/write',
    async (request, reply) => {
      const declared = request.headers['content-length'];
      // Wings copies exactly Content-Length bytes; without it the quota could not be checked before writing.
      if (declared === undefined || !/^\d+$/.test(declared)) {
        throw new HttpError(400, CONTENT_LENGTH_REQUIRED_MESSAGE);
      }
      const size = Number(declared);
      const body = (request.body as Readable | undefined) ?? request.raw;
      try {
        const files = await serverOf(request).files();
        // Read without destroying the request on a refusal: a destroyed request leaves its unread bytes on the
        // socket, and the panel's next call on that kept-alive connection would wait behind them unanswered.
        const data = size === 0 ? Buffer.alloc(0) : body.iterator({ destroyOnReturn: false });
        await files.writeFile(request.query.file ?? '', data, size);
      } catch (error) {
        drainRefusedBody(request.raw);
        throw error;
      }
      return reply.status(204).send();
    },
  );
}
