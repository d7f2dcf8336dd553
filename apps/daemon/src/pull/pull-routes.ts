import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import { serverOf } from '@aerie/daemon/http-kit/route-helpers';
import type { DaemonFileStat, DaemonPullList, DaemonPullStarted } from '@aerie/shared/files/file-wire';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { redactUrl } from './pull-url';
import type { RemotePulls } from './remote-pulls';

export const PULL_BODY_MESSAGE =
  'The url of the file to download and the directory to save it in must be provided.';

/** Wings' body: `root` (or the deprecated `directory`), `url`, `file_name`, `use_header`, `foreground`. */
const pullBodySchema = z
  .object({
    url: z.string().min(1),
    root: z.string().optional(),
    directory: z.string().optional(),
    file_name: z.string().nullish(),
    use_header: z.boolean().nullish(),
    foreground: z.boolean().nullish(),
  })
  .refine((body) => body.root !== undefined || body.directory !== undefined);

/**
 * Wings' remote download routes inside the `:server` scope: `GET …/files/pull` (downloads under way),
 * `POST …/files/pull` (202 `{identifier}` at once, or with `foreground` 200 and the file's stat once whole) and
 * `DELETE …/files/pull/:download` (204, whether or not it was running). A background download that fails, or
 * finishes, says so on the server's console.
 */
export async function pullRoutes(scope: FastifyInstance, pulls: RemotePulls): Promise<void> {
  scope.get(
    '/api/servers/:server/files/pull',
    async (request): Promise<DaemonPullList> => ({
      downloads: pulls.list(serverOf(request).uuid),
    }),
  );

  scope.post('/api/servers/:server/files/pull', async (request, reply) => {
    const parsed = pullBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw new HttpError(422, PULL_BODY_MESSAGE);
    const body = parsed.data;
    const server = serverOf(request);
    const started = await pulls.start(server, {
      url: body.url,
      root: body.root ?? body.directory ?? '/',
      fileName: body.file_name ?? undefined,
      useHeader: body.use_header === true,
    });
    if (body.foreground === true) {
      const entry: DaemonFileStat = await started.done;
      return reply.status(200).send(entry);
    }
    const shown = redactUrl(new URL(body.url));
    started.done.then(
      (entry) =>
        server.announce(`Downloaded ${entry.name} (${entry.size} bytes) from ${shown}.`, { keep: true }),
      (error: unknown) =>
        server.announce(`Downloading ${shown} failed: ${(error as Error).message}`, { keep: true }),
    );
    const answer: DaemonPullStarted = { identifier: started.identifier };
    return reply.status(202).send(answer);
  });

  scope.delete<{ Params: { server: string; download: string } }>(
    '/api/servers/:server/files/pull/:download',
    async (request, reply) => {
      pulls.cancel(serverOf(request).uuid, request.params.download);
      return reply.status(204).send();
    },
  );
}
