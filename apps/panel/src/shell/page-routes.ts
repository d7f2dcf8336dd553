import type { AppContext } from '@aerie/panel/app-context';
import { csrfTokenFor } from '@aerie/panel/features/auth/csrf';
import { NodeOrigins } from '@aerie/panel/features/nodes/node-origins';
import { presentPageUser } from '@aerie/panel/features/users/user.presenter';
import { notFound } from '@aerie/panel/http/errors';
import { documentCsp, scriptNonce } from '@aerie/panel/http/security-headers';
import type { SiteConfiguration } from '@aerie/shared/boot/page-globals';
import type { FastifyInstance } from 'fastify';
import type { HtmlShell } from './html-shell';

/** Paths that never fall back to the HTML shell. */
const NOT_PAGES = /^\/(api|assets|locales)(\/|$)/;

/** Sign-in pages a signed-in user has no business on: they go to the dashboard instead. */
const GUEST_ONLY = /^\/auth\/(login|login\/checkpoint|password|password\/reset\/[^/]+)$/;

/**
 * Every other GET is a page of the SPA: the shell with the user and site injected. Guests are sent to the
 * login page from anywhere outside /auth; other /auth paths get the shell (the SPA shows its not-found page).
 */
export async function pageRoutes(
  app: FastifyInstance,
  { ctx, shell }: { ctx: AppContext; shell: HtmlShell },
) {
  // Read per page from the panel settings (cached), so an admin's change shows on the next page.
  const siteConfiguration = async (): Promise<SiteConfiguration> => {
    const recaptcha = await ctx.settings.recaptcha();
    return {
      name: await ctx.settings.appName(),
      locale: await ctx.settings.defaultLanguage(),
      recaptcha: { enabled: recaptcha.enabled, siteKey: recaptcha.siteKey },
      analytics: null,
    };
  };
  const nodeOrigins = new NodeOrigins(ctx.db, app.log);

  app.get('/*', async (request, reply) => {
    const path = (request.url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
    if (NOT_PAGES.test(path)) throw notFound();
    const user = request.user;
    if (!user && !path.startsWith('/auth/') && path !== '/auth')
      return reply.redirect(loginFor(request.url), 302);
    if (user && GUEST_ONLY.test(path)) return reply.redirect('/', 302);
    const nonce = scriptNonce();
    const site = await siteConfiguration();
    const html = shell.render({
      csrfToken: csrfTokenFor(request, reply),
      user: user ? presentPageUser(user, await ctx.adminRoles.grantOf(user)) : null,
      site,
      nonce,
    });
    const csp = documentCsp({
      nonce,
      connectSources: await nodeOrigins.list(),
      recaptcha: site.recaptcha.enabled,
      avatarOrigin: avatarOrigin(ctx.config.avatarUrlTemplate),
    });
    // The page carries a CSRF token and the user: never cache it.
    return reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', csp)
      .type('text/html; charset=utf-8')
      .send(html);
  });
}

/**
 * The login page for a guest's page load: `/auth/login?redirect=<path and query>`, so signing in ends where the
 * guest was going (spec §4 Login; the web app follows only a same-origin path). Plain for the dashboard, and for
 * anything that does not start with a single `/` (it could name another host).
 */
export function loginFor(url: string): string {
  if (url === '/' || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\'))
    return '/auth/login';
  return `/auth/login?${new URLSearchParams({ redirect: url })}`;
}

/** `https://www.gravatar.com` of `https://www.gravatar.com/avatar/{md5}?s=400`; the env schema made it a URL. */
const avatarOrigin = (template: string | undefined) => (template ? new URL(template).origin : undefined);
