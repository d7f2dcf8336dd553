import type { AppContext } from '@aerie/panel/app-context';
import { authRoutes } from '@aerie/panel/features/auth/auth.routes';
import { oauthRoutes } from '@aerie/panel/features/oauth/oauth.routes';
import { passkeySignInRoutes } from '@aerie/panel/features/passkeys/passkey-sign-in.routes';
import type { FastifyInstance } from 'fastify';

/**
 * /auth/*: sign-in, the 2FA checkpoint, forgotten passwords and sign-out. No hook of its own: the session and CSRF
 * checks of the whole app apply, and each route limits its own attempts.
 */
export async function authSurface(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(authRoutes, { ctx });
  await app.register(passkeySignInRoutes, { ctx });
  await app.register(oauthRoutes, { ctx });
}
