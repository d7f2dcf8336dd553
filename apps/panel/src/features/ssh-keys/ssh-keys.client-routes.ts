import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { originOf } from '@aerie/panel/http/request-origin';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { createSshKeyBodySchema, removeSshKeyBodySchema } from '@aerie/shared/ssh-keys/ssh-keys-bodies';
import type { FastifyInstance } from 'fastify';
import { presentSshKey, presentSshKeyList } from './ssh-key.presenter';

/** /api/client/account/ssh-keys: the user's SSH public keys for SFTP (reference §7.1). */
export async function sshKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('', async (request) => presentSshKeyList(await ctx.sshKeys.list(signedInUser(request))));

  app.post(
    '',
    {
      config: { body: createSshKeyBodySchema, summary: 'Add an SSH public key to the account (SFTP logins)' },
    },
    async (request) => {
      const input = validateRouteBody<typeof createSshKeyBodySchema>(request);
      const key = await ctx.sshKeys.create(
        signedInUser(request),
        {
          name: input.name,
          publicKey: input.public_key,
        },
        originOf(request),
      );
      return presentSshKey(key);
    },
  );

  app.post(
    '/remove',
    {
      config: {
        body: removeSshKeyBodySchema,
        summary: 'Remove an SSH key by its fingerprint (204 even if none)',
      },
    },
    async (request, reply) => {
      const input = validateRouteBody<typeof removeSshKeyBodySchema>(request);
      await ctx.sshKeys.remove(signedInUser(request), input.fingerprint, originOf(request));
      return reply.status(204).send();
    },
  );
}
