import type { AppContext } from '@aerie/panel/app-context';
import type { User } from '@aerie/panel/features/users/user';
import { presentPageUser } from '@aerie/panel/features/users/user.presenter';
import { tooManyRequests, unauthenticated } from '@aerie/panel/http/errors';
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
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { rotateCsrf } from './csrf';
import { isOwnPageRequest } from './own-page-request';

const FORGOT_PASSWORD_PER_MINUTE = 2;

/** Sign-in, 2FA checkpoint, forgotten password and sign-out (wire: reference §4.4, contract.md). */
export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { sessions, recaptcha } = ctx;

  const signIn = async (request: FastifyRequest, reply: FastifyReply, user: User) => {
    await sessions.signIn(request, reply, user);
    await ctx.login.succeeded(user, originOf(request));
    rotateCsrf(reply);
    return { data: { complete: true, intended: '/', user: presentPageUser(user) } };
  };

  app.post('/auth/login', async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    await recaptcha.assertHuman(body?.['g-recaptcha-response'], request.ip);
    const input = validateBody(loginBodySchema, body);
    const user = await ctx.login.authenticate(originOf(request), input.user, input.password);
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

  const forgotLimiter = new RateLimiterMemory({
    keyPrefix: 'forgot-password',
    points: FORGOT_PASSWORD_PER_MINUTE,
    duration: 60,
  });

  app.post('/auth/password', async (request) => {
    try {
      await forgotLimiter.consume(request.ip);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw tooManyRequests(
        Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        FORGOT_PASSWORD_PER_MINUTE,
      );
    }
    const body = request.body as Record<string, unknown> | undefined;
    await recaptcha.assertHuman(body?.['g-recaptcha-response'], request.ip);
    const input = validateBody(forgotPasswordBodySchema, body);
    await ctx.passwordReset.requestLink(input.email);
    return { status: errorMessages.resetLinkSent };
  });

  app.post('/auth/password/reset', async (request, reply) => {
    const input = validateBody(resetPasswordBodySchema, request.body);
    const user = await ctx.passwordReset.reset(input);
    // The reset signed the user out everywhere; sign this browser in again unless 2FA must be passed first.
    if (user.useTotp) await sessions.signOut(request, reply);
    else await sessions.signIn(request, reply, user);
    rotateCsrf(reply);
    return { success: true, redirect_to: '/', send_to_login: user.useTotp };
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
