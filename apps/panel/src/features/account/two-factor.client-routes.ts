import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { bodyField } from '@aerie/panel/http/body-field';
import { originOf } from '@aerie/panel/http/request-origin';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { enableTwoFactorBodySchema } from '@aerie/shared/account/account-bodies';
import type { RecoveryTokensResponse, TwoFactorSetupResponse } from '@aerie/shared/account/account-wire';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Every route here stays reachable while the panel requires 2FA: they are how a user complies. */
const exempt = { config: { twoFactorExempt: true } };

/** /api/client/account/two-factor: TOTP setup, confirmation and removal (reference §4.3). */
export async function twoFactorRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('', exempt, async (request): Promise<TwoFactorSetupResponse> => {
    return { data: await ctx.twoFactor.setup(signedInUser(request)) };
  });

  app.post(
    '',
    {
      config: {
        ...exempt.config,
        body: enableTwoFactorBodySchema,
        summary: 'Enable two-factor authentication; answers the recovery tokens',
      },
    },
    async (request): Promise<RecoveryTokensResponse> => {
      const user = signedInUser(request);
      const input = validateRouteBody<typeof enableTwoFactorBodySchema>(request);
      const tokens = await ctx.twoFactor.enable(user, originOf(request), input);
      return { object: 'recovery_tokens', attributes: { tokens } };
    },
  );

  const disable = async (request: FastifyRequest, reply: FastifyReply, password: unknown) => {
    await ctx.twoFactor.disable(signedInUser(request), originOf(request), password);
    return reply.status(204).send();
  };
  // The spec's form: DELETE with the password in the query string.
  app.delete('', exempt, async (request, reply) =>
    disable(
      request,
      reply,
      (request.query as Record<string, unknown>).password ?? bodyField(request, 'password'),
    ),
  );
  // Pterodactyl 1.11's form: POST …/disable {password}.
  app.post('/disable', exempt, async (request, reply) =>
    disable(request, reply, bodyField(request, 'password')),
  );
}
