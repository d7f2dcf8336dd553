import type { AppContext } from '@aerie/panel/app-context';
import { remoteNodeOf } from '@aerie/panel/features/nodes/node-auth';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { sftpAuthBodySchema } from '@aerie/shared/sftp/sftp-bodies';
import type { SftpAuthAnswer } from '@aerie/shared/sftp/sftp-wire';
import type { FastifyInstance } from 'fastify';

/**
 * POST /api/remote/sftp/auth: a daemon asks whether an SFTP login may in (reference/wings.md §1.4, §8), behind the
 * remote surface's node token; only servers of the calling node can be logged into.
 */
export async function sftpAuthRemoteRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post(
    '/sftp/auth',
    { config: { body: sftpAuthBodySchema, summary: 'Decide an SFTP login (password or public key)' } },
    async (request): Promise<SftpAuthAnswer> => {
      const input = validateRouteBody<typeof sftpAuthBodySchema>(request);
      return ctx.sftpAuth.authenticate(remoteNodeOf(request), {
        type: input.type ?? 'password',
        username: input.username,
        password: input.password,
        ip: input.ip ?? request.ip,
      });
    },
  );
}
