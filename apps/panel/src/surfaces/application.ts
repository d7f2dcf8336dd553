import type { AppContext } from '@aerie/panel/app-context';
import {
  adminRoleRoutes,
  userRoleRoutes,
} from '@aerie/panel/features/admin-roles/admin-roles.application-routes';
import { serverRoutes } from '@aerie/panel/features/admin-servers/admin-servers.application-routes';
import { applicationKeyRoutes } from '@aerie/panel/features/api-keys/application-keys.application-routes';
import { auditLogRoutes } from '@aerie/panel/features/audit/audit.application-routes';
import { requireAudit } from '@aerie/panel/features/audit/audit-request';
import { assertResourceAccess } from '@aerie/panel/features/auth/application-api-auth';
import { assertTwoFactorSatisfied, identifyClient } from '@aerie/panel/features/auth/client-api-auth';
import { databaseHostRoutes } from '@aerie/panel/features/databases/database-hosts.application-routes';
import { serverDatabaseApplicationRoutes } from '@aerie/panel/features/databases/server-databases.application-routes';
import { nestRoutes } from '@aerie/panel/features/eggs/nests.application-routes';
import { locationRoutes } from '@aerie/panel/features/locations/locations.application-routes';
import { mountRoutes } from '@aerie/panel/features/mounts/mounts.application-routes';
import { nodeRoutes } from '@aerie/panel/features/nodes/nodes.application-routes';
import { oauthProviderRoutes } from '@aerie/panel/features/oauth/oauth-providers.application-routes';
import { overviewRoutes } from '@aerie/panel/features/overview/overview.application-routes';
import { panelSettingsRoutes } from '@aerie/panel/features/panel-settings/panel-settings.application-routes';
import { serverTransferRoutes } from '@aerie/panel/features/transfers/transfers.application-routes';
import { userRoutes } from '@aerie/panel/features/users/users.application-routes';
import { forbidden } from '@aerie/panel/http/errors';
import { perUserRateLimit } from '@aerie/panel/http/per-user-rate-limit';
import { originOf } from '@aerie/panel/http/request-origin';
import { applicationApiMessages } from '@aerie/shared/application-api/application-api-messages';
import type { FastifyInstance } from 'fastify';

/**
 * /api/application/*, admins only (reference application API §1.1): who is asking — an API key (`ptla_`, or an
 * admin's `ptlc_`) or the session with CSRF (401), the per-user limit of API_APPLICATION_RATELIMIT a minute
 * (429, its own bucket), the panel's 2FA requirement (400), the key's IP allow-list (403), a root admin or a user
 * with an admin role (403), then the route's resource, for the role and for an application key (403). Unlike
 * upstream, a missing id answers 404 only after these checks, so nobody without the resource learns what exists.
 * Every changing route records what it changed in the admin audit log (`requireAudit`).
 */
export async function applicationSurface(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const consume = perUserRateLimit(ctx.shared, 'api-application', ctx.config.apiApplicationRateLimit);

  app.decorateRequest('adminGrant', null);
  app.addHook('onRequest', async (request, reply) => {
    const user = await identifyClient(ctx.apiKeys, request);
    await consume(user.uuid, reply);
    await assertTwoFactorSatisfied(ctx.settings, request, user);
    if (request.apiKey) await ctx.apiKeys.assertUsableOnApplicationApi(request.apiKey, originOf(request));
    request.adminGrant = await ctx.adminRoles.grantOf(user);
    if (!request.adminGrant) throw forbidden(applicationApiMessages.notAdmin);
    assertResourceAccess(request);
  });
  requireAudit(app);

  await app.register(applicationKeyRoutes, { ctx, prefix: '/api-keys' });
  await app.register(userRoutes, { ctx, prefix: '/users' });
  await app.register(userRoleRoutes, { ctx, prefix: '/users' });
  await app.register(locationRoutes, { ctx, prefix: '/locations' });
  await app.register(nodeRoutes, { ctx, prefix: '/nodes' });
  await app.register(nestRoutes, { ctx, prefix: '/nests' });
  await app.register(serverRoutes, { ctx, prefix: '/servers' });
  await app.register(serverDatabaseApplicationRoutes, { ctx, prefix: '/servers' });
  await app.register(serverTransferRoutes, { ctx, prefix: '/servers' });
  await app.register(databaseHostRoutes, { ctx, prefix: '/database-hosts' });
  await app.register(mountRoutes, { ctx, prefix: '/mounts' });
  await app.register(overviewRoutes, { ctx, prefix: '/overview' });
  await app.register(panelSettingsRoutes, { ctx, prefix: '/settings' });
  await app.register(auditLogRoutes, { ctx, prefix: '/audit-log' });
  await app.register(adminRoleRoutes, { ctx, prefix: '/roles' });
  await app.register(oauthProviderRoutes, { ctx, prefix: '/oauth-providers' });
}
