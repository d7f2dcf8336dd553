import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { rotateCsrf } from '@aerie/panel/features/auth/csrf';
import { presentAccount } from '@aerie/panel/features/users/user.presenter';
import { bodyField } from '@aerie/panel/http/body-field';
import { originOf } from '@aerie/panel/http/request-origin';
import { validateRouteBody } from '@aerie/panel/http/validate';
import {
  updateEmailBodySchema,
  updateLanguageBodySchema,
  updatePasswordBodySchema,
} from '@aerie/shared/account/account-bodies';
import type { FastifyInstance } from 'fastify';

/** /api/client/account: the signed-in user's own account. */
export async function accountRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('', { config: { twoFactorExempt: true } }, async (request) =>
    presentAccount(signedInUser(request)),
  );

  app.put(
    '/email',
    { config: { body: updateEmailBodySchema, summary: 'Change the account’s email address' } },
    async (request, reply) => {
      const user = signedInUser(request);
      await ctx.account.assertPassword(user, request.ip, bodyField(request, 'password'));
      const input = validateRouteBody<typeof updateEmailBodySchema>(request);
      await ctx.account.changeEmail(user, originOf(request), input.email);
      return reply.status(204).send();
    },
  );

  app.put(
    '/language',
    {
      config: {
        body: updateLanguageBodySchema,
        summary: 'Change the language of the account’s pages and mail',
      },
    },
    async (request, reply) => {
      const input = validateRouteBody<typeof updateLanguageBodySchema>(request);
      await ctx.account.changeLanguage(signedInUser(request), input.language);
      return reply.status(204).send();
    },
  );

  app.put(
    '/password',
    {
      config: {
        body: updatePasswordBodySchema,
        summary: 'Change the account’s password (ends every session)',
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      await ctx.account.assertPassword(user, request.ip, bodyField(request, 'current_password'));
      const input = validateRouteBody<typeof updatePasswordBodySchema>(request);
      await ctx.account.changePassword(user, input.password, originOf(request));
      // Every session ended, this one too: the SPA sends the browser to /auth/login next.
      if (request.session) {
        await ctx.sessions.signOut(request, reply);
        rotateCsrf(reply);
      }
      return reply.status(204).send();
    },
  );
}
