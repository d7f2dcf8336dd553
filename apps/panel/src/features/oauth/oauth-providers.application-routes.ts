import type { AppContext } from '@aerie/panel/app-context';
import { APPLICATION_KEY } from '@aerie/panel/features/api-keys/api-key';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import { renderItem, renderPage, resourceUrl } from '@aerie/panel/http/application/transformer';
import { forbidden, notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import {
  oauthProviderAttributeNames,
  oauthProviderCreateSchema,
  oauthProviderUpdateSchema,
} from '@aerie/shared/oauth/oauth-bodies';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OAuthProvider } from './oauth-provider';
import { oauthProviderTransformer } from './oauth-provider.transformer';
import { oauthProviderListSpec } from './oauth-providers.repository';

/**
 * /api/application/oauth-providers: the identity providers users sign in with. Root admins only (no
 * `adminResource`: a role never reaches them), and never with an application key, even a root admin's: a provider
 * decides who gets into which account. A root admin's session or account key (`ptlc_`) may.
 */
export async function oauthProviderRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const transformer = oauthProviderTransformer(ctx.config.appUrl);
  const bodyOptions = { attributes: oauthProviderAttributeNames };
  const render = (request: FastifyRequest, provider: OAuthProvider) =>
    renderItem(renderContextFor(request, ctx), transformer, provider, new Map());
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, transformer);

  app.addHook('onRequest', async (request) => {
    if (request.apiKey?.keyType === APPLICATION_KEY) throw forbidden(oauthMessages.notByApplicationKey);
  });

  app.get('', { config: { summary: 'Sign-in providers' } }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, oauthProviderListSpec);
    const page = await ctx.oauthProviders.list(list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      transformer,
      { ...page, page: list.page, perPage: list.perPage },
      new Map(),
    );
  });

  app.get('/:id', { config: { summary: 'A sign-in provider' } }, async (request) => {
    const provider = await ctx.oauthProviders.find(idParam((request.params as { id: string }).id));
    if (!provider) throw notFound();
    return render(request, provider);
  });

  app.post(
    '',
    {
      config: {
        audit: 'oauth_provider.create',
        body: oauthProviderCreateSchema,
        summary: 'Add a sign-in provider (OpenID Connect, Discord or GitHub)',
      },
    },
    async (request, reply) => {
      const input = validateRouteBody<typeof oauthProviderCreateSchema>(request, bodyOptions);
      const provider = await ctx.oauthProviders.create(input, audit(request));
      return reply.status(201).send({
        ...(await render(request, provider)),
        meta: { resource: resourceUrl(request, `oauth-providers/${provider.id}`) },
      });
    },
  );

  app.patch(
    '/:id',
    {
      config: {
        audit: 'oauth_provider.update',
        body: oauthProviderUpdateSchema,
        summary: 'Change a sign-in provider (fields sent only; no secret keeps the stored one)',
      },
    },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      const input = validateRouteBody<typeof oauthProviderUpdateSchema>(request, bodyOptions);
      return render(request, await ctx.oauthProviders.update(id, input, audit(request)));
    },
  );

  app.delete(
    '/:id',
    { config: { audit: 'oauth_provider.delete', summary: 'Delete a sign-in provider and its links' } },
    async (request, reply) => {
      await ctx.oauthProviders.delete(idParam((request.params as { id: string }).id), audit(request));
      return reply.status(204).send();
    },
  );
}
