import type { Config } from '@aerie/panel/config/load-config';
import { PANEL_VERSION } from '@aerie/panel/config/version';
import type { Db } from '@aerie/panel/db/database';
import { registerCsrf } from '@aerie/panel/features/auth/csrf';
import { admitPanelRequests } from '@aerie/panel/http/admission';
import { connectionServerOptions, guardPanelConnections } from '@aerie/panel/http/connection-guard';
import { registerErrorHandling } from '@aerie/panel/http/error-handler';
import { registerFormBodyParsers } from '@aerie/panel/http/form-body-parser';
import { registerJsonBodyParser } from '@aerie/panel/http/json-body-parser';
import { docsRoutes } from '@aerie/panel/http/openapi/docs.routes';
import { catalogueApiRoutes } from '@aerie/panel/http/openapi/route-catalogue';
import { registerSecurityHeaders } from '@aerie/panel/http/security-headers';
import { HtmlShell } from '@aerie/panel/shell/html-shell';
import { localeRoutes } from '@aerie/panel/shell/locales';
import { pageRoutes } from '@aerie/panel/shell/page-routes';
import { staticFiles } from '@aerie/panel/shell/static-files';
import { applicationSurface } from '@aerie/panel/surfaces/application';
import { authSurface } from '@aerie/panel/surfaces/auth';
import { clientSurface } from '@aerie/panel/surfaces/client';
import { remoteSurface } from '@aerie/panel/surfaces/remote';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { type AppContext, createAppContext } from './app-context';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/**
 * The largest JSON (or other parsed) body, stated rather than left to Fastify's default: every field that reaches
 * a validation rule is at most this long, and the rules are linear in it (packages/shared validation tests).
 * File writes stream their own body and have their own limit.
 */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildAppOptions {
  config: Config;
  db: Db;
  appKey: Buffer;
  /** Replaces the wall clock in services (tests move time forward). */
  clock?: () => Date;
  logger?: FastifyServerOptions['logger'];
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function trusting that many hops: Fastify itself now
 * trusts no hop for a number (the immediate peer cannot be checked), so a count is only for a panel that nothing
 * reaches but its proxies (README "Configuration").
 */
function fastifyTrustProxy(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * Builds the panel's Fastify app without listening. The caller owns the database: closing the app does not
 * close it. Throws WebBuildMissingError when the web build is missing.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Fail before anything is set up when the web app is not built.
  const shell = HtmlShell.load(config.webDist);
  const app = Fastify({
    ...connectionServerOptions(config.connections),
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    // Request logs of every asset and poll would drown the useful lines.
    logController: new LogController({ disableRequestLogging: true }),
  });
  guardPanelConnections(app, config.connections);
  admitPanelRequests(app, config.admission);
  const ctx = createAppContext({ ...options, log: app.log });
  app.decorate('ctx', ctx);
  app.decorateRequest('session', null);
  app.decorateRequest('user', null);
  app.decorateRequest('apiKey', null);
  app.addHook('onClose', () => ctx.mailer.drain());
  app.addHook('onClose', () => ctx.shared.close());

  registerErrorHandling(app);
  registerSecurityHeaders(app);
  registerJsonBodyParser(app);
  registerFormBodyParsers(app);
  await app.register(cookie);
  await registerCsrf(app);
  app.addHook('onRequest', async (request, reply) => {
    // Static files and translations never need the session: skip the database round trip.
    if (/^\/(assets|locales)\//.test(request.url)) return;
    await ctx.sessions.load(request, reply);
  });

  // One scope: the locale routes use the reply.sendFile that the static plugin adds.
  await app.register(async (scope) => {
    await staticFiles(scope, { webDist: config.webDist });
    await localeRoutes(scope, { webDist: config.webDist });
  });
  const apiRoutes = catalogueApiRoutes(app);
  await app.register(authSurface, { ctx });
  await app.register(clientSurface, { ctx, prefix: '/api/client' });
  await app.register(applicationSurface, { ctx, prefix: '/api/application' });
  await app.register(remoteSurface, { ctx, prefix: '/api/remote' });
  await app.register(docsRoutes, {
    prefix: '/api/docs',
    routes: apiRoutes,
    title: config.appName,
    version: PANEL_VERSION,
  });
  await app.register(pageRoutes, { ctx, shell });
  return app;
}
