import type { AppContext } from '@aerie/panel/app-context';
import { completeSignIn } from '@aerie/panel/features/auth/complete-sign-in';
import type { OAuthFlow, SessionData } from '@aerie/panel/features/auth/session/session-data';
import { displayError } from '@aerie/panel/http/errors';
import { originOf } from '@aerie/panel/http/request-origin';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import type { PublicOAuthProvider, SsoErrorCode } from '@aerie/shared/oauth/oauth-wire';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { reissueCheckpointToken } from './oauth-checkpoint';
import { OAuthFailure } from './oauth-failure';

/** Where each outcome sends the browser. */
const AFTER_SIGN_IN = '/';
const AFTER_LINK = '/account';
const CHECKPOINT_PAGE = '/auth/login/checkpoint?sso=1';

/** Failures that say nothing about the address (the user said no, the provider is off) are not counted against it. */
const UNCOUNTED: readonly SsoErrorCode[] = ['denied', 'disabled', 'throttled'];

const withoutFlow = (data: SessionData | undefined): SessionData => {
  const { oauth, ...rest } = data ?? {};
  return oauth?.checkpoint ? { ...rest, oauth: { checkpoint: true } } : rest;
};

/**
 * /auth/oauth: signing in (and linking an account) through an identity provider. Browser navigations, so every
 * outcome is a redirect: `/` once signed in, `/account` once linked, the 2FA page when the account needs its
 * code, and `/auth/login?sso_error=<code>` (a link: `/account?sso_error=<code>`) on any failure, never a 500.
 */
export async function oauthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { sessions } = ctx;

  const failTo = (purpose: OAuthFlow['purpose'] | undefined, code: SsoErrorCode) =>
    `${purpose === 'link' ? AFTER_LINK : '/auth/login'}?sso_error=${code}`;

  const redirect = (reply: FastifyReply, location: string) =>
    reply.header('cache-control', 'no-store').redirect(location, 302);

  /** Logs why (the user only sees the code), counts it against the address, sends the browser back. */
  const fail = async (
    request: FastifyRequest,
    reply: FastifyReply,
    purpose: OAuthFlow['purpose'] | undefined,
    error: unknown,
  ) => {
    const failure =
      error instanceof OAuthFailure ? error : new OAuthFailure('failed', String(error), { cause: error });
    request.log[error instanceof OAuthFailure ? 'warn' : 'error'](
      {
        err: error instanceof OAuthFailure ? undefined : error,
        sso: failure.code,
        url: request.routeOptions.url,
      },
      `single sign-on refused: ${failure.message}`,
    );
    if (!UNCOUNTED.includes(failure.code)) await ctx.signInThrottle.recordAddressFailure(request.ip);
    return redirect(reply, failTo(purpose, failure.code));
  };

  // The sign-in page's buttons: enabled providers only, nothing an admin would keep to themselves.
  app.get('/auth/oauth/providers', async () => ({
    data: (await ctx.oauthProviders.listEnabled()).map(
      (provider): PublicOAuthProvider => ({ slug: provider.slug, name: provider.name, kind: provider.kind }),
    ),
  }));

  // The 2FA step after a provider sign-in: the web app fetches its confirmation token here (session-bound).
  app.get('/auth/oauth/checkpoint', async (request, reply) => {
    const reissued = reissueCheckpointToken(request.session?.data, ctx.clock());
    if (!reissued) throw displayError(errorMessages.checkpointExpired);
    await sessions.saveData(request, reply, reissued.data);
    return reply.header('cache-control', 'no-store').send({
      data: { confirmation_token: reissued.confirmationToken },
    });
  });

  app.get('/auth/oauth/:provider/redirect', async (request, reply) => {
    const { provider: slug } = request.params as { provider: string };
    const user = request.user;
    const purpose = user && (request.query as Record<string, unknown>).link === '1' ? 'link' : 'sign-in';
    try {
      const provider = await ctx.oauthProviders.findBySlug(slug);
      if (!provider?.enabled) throw new OAuthFailure('disabled', `no enabled provider "${slug}"`);
      const { url, flow } = await ctx.oauthClients.start(
        provider,
        purpose,
        purpose === 'link' ? (user?.id ?? null) : null,
      );
      const data = request.session?.data;
      await sessions.saveData(request, reply, { ...withoutFlow(data), oauth: { ...data?.oauth, flow } });
      return redirect(reply, url.href);
    } catch (error) {
      return fail(request, reply, purpose, error);
    }
  });

  app.get('/auth/oauth/:provider/callback', async (request, reply) => {
    const { provider: slug } = request.params as { provider: string };
    const data = request.session?.data;
    const flow = data?.oauth?.flow;
    try {
      if (await ctx.signInThrottle.addressWait(request.ip)) {
        throw new OAuthFailure('throttled', 'too many failed sign-ins from this address');
      }
      // One answer per flow: whatever happens next, this flow is used up.
      if (flow) await sessions.saveData(request, reply, withoutFlow(data));
      if (!flow || flow.expiresAt <= ctx.clock().getTime()) {
        throw new OAuthFailure('state', 'no sign-in through a provider is under way in this session');
      }
      const provider = await ctx.oauthProviders.find(flow.providerId);
      if (!provider?.enabled) throw new OAuthFailure('disabled', 'the provider was disabled or deleted');
      if (provider.slug !== slug)
        throw new OAuthFailure('state', 'the answer came back for another provider');
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      const identity = await ctx.oauthClients.finish(provider, flow, query);
      const origin = originOf(request);
      const outcome = await ctx.oauthSignIn.resolve(provider, flow, identity, request.user, origin);
      if (outcome.kind === 'linked') return redirect(reply, AFTER_LINK);
      if (outcome.kind === 'checkpoint') {
        const step = await ctx.login.checkpointFor(outcome.user, origin);
        await sessions.saveData(request, reply, { ...step.data, oauth: { checkpoint: true } });
        return redirect(reply, CHECKPOINT_PAGE);
      }
      await completeSignIn(ctx, request, reply, outcome.user);
      return redirect(reply, AFTER_SIGN_IN);
    } catch (error) {
      return fail(request, reply, flow?.purpose, error);
    }
  });
}
