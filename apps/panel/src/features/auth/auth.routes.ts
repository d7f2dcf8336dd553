import type { AppContext } from '@aerie/panel/app-context';
import { assertSignInWithoutSso, ssoRequiredFor } from '@aerie/panel/features/oauth/oauth-lookups';
import type { User } from '@aerie/panel/features/users/user';
import { HttpError, unauthenticated } from '@aerie/panel/http/errors';
import { expectsJson } from '@aerie/panel/http/expects-json';
import { originOf } from '@aerie/panel/http/request-origin';
import { validateBody } from '@aerie/panel/http/validate';
import {
  checkpointBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  resetPasswordBodySchema,
} from '@aerie/shared/auth/auth-bodies';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { completeSignIn } from './complete-sign-in';
import { rotateCsrf, sendXsrfCookie } from './csrf';
import { isOwnPageRequest } from './own-page-request';

/** Sign-in, 2FA checkpoint, forgotten password and sign-out (wire: reference §4.4, contract.md). */
export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { sessions, recaptcha, passwordResetThrottle } = ctx;

  const signIn = (request: FastifyRequest, reply: FastifyReply, user: User) =>
    completeSignIn(ctx, request, reply, user);

  app.post('/auth/login', async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    await recaptcha.assertHuman(body?.['g-recaptcha-response'], request.ip);
    const input = validateBody(loginBodySchema, body);
    const user = await ctx.login.authenticate(originOf(request), input.user, input.password);
    // Only once the password is right, so the refusal tells nobody else which accounts are root admins.
    await assertSignInWithoutSso(ctx, user);
    if (!user.useTotp) return signIn(request, reply, user);
    const { confirmationToken, data } = await ctx.login.checkpointFor(user, originOf(request));
    await sessions.saveData(request, reply, data);
    return { data: { complete: false, confirmation_token: confirmationToken } };
  });

  app.post('/auth/login/checkpoint', async (request, reply) => {
    const input = validateBody(checkpointBodySchema, request.body);
    const user = await ctx.checkpoint.complete(originOf(request), request.session, {
      confirmationToken: input.confirmation_token,
      authenticationCode: input.authentication_code,
      recoveryToken: input.recovery_token,
    });
    return signIn(request, reply, user);
  });

  app.post('/auth/password', async (request) => {
    await passwordResetThrottle.consumeLinkRequest(
      (request.body as Record<string, unknown> | undefined)?.email,
      request.ip,
    );
    const body = request.body as Record<string, unknown> | undefined;
    await recaptcha.assertHuman(body?.['g-recaptcha-response'], request.ip);
    const input = validateBody(forgotPasswordBodySchema, body);
    await ctx.passwordReset.requestLink(input.email);
    return { status: errorMessages.resetLinkSent };
  });

  app.post('/auth/password/reset', async (request, reply) => {
    const input = validateBody(resetPasswordBodySchema, request.body);
    await passwordResetThrottle.assertResetAllowed(input.email, request.ip);
    const user = await ctx.passwordReset.reset(input).catch(async (error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 400)
        await passwordResetThrottle.recordResetFailure(input.email, request.ip);
      throw error;
    });
    // The reset signed the user out everywhere; sign this browser in again unless 2FA must be passed first (or
    // the panel wants single sign-on from this user: a password is then only a way back in for later).
    const signInNow = !user.useTotp && !(await ssoRequiredFor(ctx, user));
    if (!signInNow) await sessions.signOut(request, reply);
    else await sessions.signIn(request, reply, user);
    rotateCsrf(reply);
    return { success: true, redirect_to: '/', send_to_login: !signInNow };
  });

  // Laravel Sanctum's CSRF handshake, which Pterodactyl's own client calls before signing in: a readable
  // XSRF-TOKEN cookie it echoes as X-XSRF-TOKEN (see csrf.ts).
  app.get('/sanctum/csrf-cookie', async (request, reply) => {
    sendXsrfCookie(request, reply);
    return reply.status(204).send();
  });

  // The navigation's plain link. Another site must not be able to sign users out with an <img src> or a link:
  // such a request changes nothing and lands on the dashboard (or the login page for a guest).
  app.get('/auth/logout', async (request, reply) => {
    if (!isOwnPageRequest(request, ctx.config.appUrl)) {
      return reply.redirect(request.user ? '/' : '/auth/login', 302);
    }
    await sessions.signOut(request, reply);
    rotateCsrf(reply);
    return reply.redirect('/auth/login', 302);
  });

  app.post('/auth/logout', async (request, reply) => {
    if (!request.user) throw unauthenticated();
    await sessions.signOut(request, reply);
    rotateCsrf(reply);
    return expectsJson(request) ? reply.status(204).send() : reply.redirect('/', 302);
  });
}
