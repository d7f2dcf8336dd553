import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import type { RawQuery } from '@aerie/panel/http/application/list-query';
import { parseIncludes, renderPage } from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import { allocationBodySchema } from '@aerie/shared/nodes/nodes-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allocationTransformer } from './allocation.transformer';
import { listAllocations, parseAllocationListQuery } from './allocations.repository';
import { allocationsAddedSubject } from './allocations.service';
import { findNodeRow } from './nodes.repository';

/** /api/application/nodes/{node}/allocations (reference application API §3.4); mounted by nodeRoutes. */
export async function allocationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'allocations' } as const;

  /** The `{node}` of the path; an unknown node is a 404 like an unknown allocation. */
  const nodeOf = async (request: FastifyRequest) => {
    const id = idParam((request.params as { node: string }).node);
    if (!(await findNodeRow(ctx.db, id))) throw notFound();
    return id;
  };

  app.get('', { config }, async (request) => {
    const nodeId = await nodeOf(request);
    const query = parseAllocationListQuery(request.query as RawQuery);
    const page = await listAllocations(ctx.db, nodeId, query);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      allocationTransformer,
      { ...page, page: query.list.page, perPage: query.list.perPage },
      parseIncludes(request),
    );
  });

  app.post(
    '',
    {
      config: {
        ...config,
        audit: 'allocation.create',
        body: allocationBodySchema,
        summary: 'Add allocations (an IP and ports or port ranges)',
      },
    },
    async (request, reply) => {
      const nodeId = await nodeOf(request);
      const body = validateRouteBody<typeof allocationBodySchema>(request);
      // One entry for the request, however many allocations it adds.
      await ctx.allocations.create(nodeId, body, auditFor(ctx.audit, request, allocationsAddedSubject));
      return reply.status(204).send();
    },
  );

  app.delete(
    '/:allocation',
    { config: { ...config, audit: 'allocation.delete' } },
    async (request, reply) => {
      const nodeId = await nodeOf(request);
      const allocationId = idParam((request.params as { allocation: string }).allocation);
      await ctx.allocations.delete(nodeId, allocationId, auditFor(ctx.audit, request, allocationTransformer));
      return reply.status(204).send();
    },
  );
}
