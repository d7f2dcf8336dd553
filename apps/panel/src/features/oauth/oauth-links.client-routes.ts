import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { forbidden } from '@aerie/panel/http/errors';
import { originOf } from '@aerie/panel/http/request-origin';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import type { FastifyInstance } from 'fastify';

/**
 * /api/client/account/oauth: the identity providers an account signs in with. The panel's own pages only (the
 * session): an API key never changes how its owner signs in. Linking itself is a browser navigation,
 * `/auth/oauth/{provider}/redirect?link=1`.
 */
export async function oauthLinkRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.addHook('onRequest', async (request) => {
    if (request.apiKey) throw forbidden(oauthMessages.sessionOnly);
  });

  app.get(
    '',
    { config: { summary: 'The enabled sign-in providers, and which the account is linked to' } },
    async (request) => ({
      object: 'list',
      data: (await ctx.oauthLinks.list(signedInUser(request))).map((attributes) => ({
        object: 'oauth_link',
        attributes,
      })),
    }),
  );

  app.delete(
    '/:provider',
    { config: { summary: 'Unlink a sign-in provider (refused when it is the last way in)' } },
    async (request, reply) => {
      const { provider } = request.params as { provider: string };
      await ctx.oauthLinks.unlink(signedInUser(request), provider, originOf(request));
      return reply.status(204).send();
    },
  );
}
