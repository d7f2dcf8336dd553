import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import { locationAttributeNames, locationBodySchema } from '@aerie/shared/locations/locations-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { locationTransformer } from './location.transformer';
import { findLocation, listLocations, locationListSpec } from './locations.repository';

/** /api/application/locations (reference application API §3.2). */
export async function locationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'locations' } as const;
  const bodyOptions = { attributes: locationAttributeNames };

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, locationListSpec);
    const page = await listLocations(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      locationTransformer,
      { ...page, page: list.page, perPage: list.perPage },
      parseIncludes(request),
    );
  });

  app.get('/:id', { config }, async (request) => {
    const location = await findLocation(ctx.db, idParam((request.params as { id: string }).id));
    if (!location) throw notFound();
    return renderItem(renderContextFor(request, ctx), locationTransformer, location, parseIncludes(request));
  });

  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, locationTransformer);

  app.post(
    '',
    { config: { ...config, audit: 'location.create', body: locationBodySchema } },
    async (request, reply) => {
      const location = await ctx.locations.create(
        validateRouteBody<typeof locationBodySchema>(request, bodyOptions),
        audit(request),
      );
      const item = await renderItem(
        renderContextFor(request, ctx),
        locationTransformer,
        location,
        parseIncludes(request),
      );
      return reply
        .status(201)
        .send({ ...item, meta: { resource: resourceUrl(request, `locations/${location.id}`) } });
    },
  );

  app.patch(
    '/:id',
    { config: { ...config, audit: 'location.update', body: locationBodySchema } },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      if (!(await findLocation(ctx.db, id))) throw notFound();
      const location = await ctx.locations.update(
        id,
        validateRouteBody<typeof locationBodySchema>(request, bodyOptions),
        audit(request),
      );
      return renderItem(
        renderContextFor(request, ctx),
        locationTransformer,
        location,
        parseIncludes(request),
      );
    },
  );

  app.delete('/:id', { config: { ...config, audit: 'location.delete' } }, async (request, reply) => {
    await ctx.locations.delete(idParam((request.params as { id: string }).id), audit(request));
    return reply.status(204).send();
  });
}
