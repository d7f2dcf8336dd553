import type { AppContext } from '@aerie/panel/app-context';
import { completeSignIn } from '@aerie/panel/features/auth/complete-sign-in';
import { originOf } from '@aerie/panel/http/request-origin';
import { validateBody } from '@aerie/panel/http/validate';
import {
  passkeyCheckpointBodySchema,
  passkeyCheckpointOptionsBodySchema,
  passkeySignInBodySchema,
} from '@aerie/shared/passkeys/passkeys-bodies';
import type { FastifyInstance } from 'fastify';
import { keepCeremony, takeCeremony } from './passkey-ceremony-session';

/**
 * /auth/passkey: signing in with a passkey instead of a password, and /auth/login/checkpoint/passkey: a passkey
 * in place of the TOTP code. Both answer as POST /auth/login does once signed in.
 */
export async function passkeySignInRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post('/auth/passkey/options', async (request, reply) => {
    const { options, ceremony } = await ctx.passkeySignIn.signInOptions();
    await keepCeremony(ctx.sessions, request, reply, ceremony);
    return { data: options };
  });

  app.post('/auth/passkey', async (request, reply) => {
    const input = validateBody(passkeySignInBodySchema, request.body);
    const ceremony = await takeCeremony(ctx.sessions, request, reply);
    const user = await ctx.passkeySignIn.signIn(originOf(request), ceremony, input.credential);
    return completeSignIn(ctx, request, reply, user);
  });

  app.post('/auth/login/checkpoint/passkey/options', async (request, reply) => {
    const input = validateBody(passkeyCheckpointOptionsBodySchema, request.body);
    const { options, ceremony } = await ctx.passkeySignIn.checkpointOptions(
      request.session?.data,
      input.confirmation_token,
    );
    await keepCeremony(ctx.sessions, request, reply, ceremony);
    return { data: options };
  });

  app.post('/auth/login/checkpoint/passkey', async (request, reply) => {
    const input = validateBody(passkeyCheckpointBodySchema, request.body);
    const data = request.session?.data;
    await takeCeremony(ctx.sessions, request, reply);
    const user = await ctx.passkeySignIn.checkpoint(originOf(request), data, {
      confirmationToken: input.confirmation_token,
      credential: input.credential,
    });
    return completeSignIn(ctx, request, reply, user);
  });
}
