import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { forbidden } from '@aerie/panel/http/errors';
import { originOf } from '@aerie/panel/http/request-origin';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import {
  createPasskeyBodySchema,
  passkeyRegistrationOptionsBodySchema,
  renamePasskeyBodySchema,
} from '@aerie/shared/passkeys/passkeys-bodies';
import { passkeyMessages } from '@aerie/shared/passkeys/passkeys-wire';
import type { FastifyInstance } from 'fastify';
import { presentPasskey, presentPasskeyList } from './passkey.presenter';
import { keepCeremony, takeCeremony } from './passkey-ceremony-session';

/**
 * /api/client/account/passkeys: the account's passkeys. Only with a session: registering one is a browser
 * ceremony, and an API key (which a script holds) must not add or remove ways into the account.
 */
export async function passkeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.addHook('onRequest', async (request) => {
    if (request.apiKey) throw forbidden(passkeyMessages.notBySessionless);
  });

  app.get('', async (request) => presentPasskeyList(await ctx.passkeys.list(signedInUser(request))));

  app.post(
    '/options',
    {
      config: {
        body: passkeyRegistrationOptionsBodySchema,
        summary: 'Start registering a passkey: checks the password, answers the browser’s creation options',
      },
    },
    async (request, reply) => {
      const input = validateRouteBody<typeof passkeyRegistrationOptionsBodySchema>(request);
      const { options, ceremony } = await ctx.passkeys.registrationOptions(
        signedInUser(request),
        originOf(request),
        input.password,
      );
      await keepCeremony(ctx.sessions, request, reply, ceremony);
      return { data: options };
    },
  );

  app.post(
    '',
    { config: { body: createPasskeyBodySchema, summary: 'Register a passkey with the browser’s answer' } },
    async (request, reply) => {
      const input = validateRouteBody<typeof createPasskeyBodySchema>(request);
      const ceremony = await takeCeremony(ctx.sessions, request, reply);
      const passkey = await ctx.passkeys.register(signedInUser(request), originOf(request), ceremony, input);
      return presentPasskey(passkey);
    },
  );

  app.patch(
    '/:id',
    { config: { body: renamePasskeyBodySchema, summary: 'Rename a passkey' } },
    async (request) => {
      const input = validateRouteBody<typeof renamePasskeyBodySchema>(request);
      const id = idParam((request.params as { id: string }).id);
      return presentPasskey(
        await ctx.passkeys.rename(signedInUser(request), originOf(request), id, input.name),
      );
    },
  );

  app.delete('/:id', async (request, reply) => {
    const id = idParam((request.params as { id: string }).id);
    await ctx.passkeys.remove(signedInUser(request), originOf(request), id);
    return reply.status(204).send();
  });
}
