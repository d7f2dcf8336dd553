import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { locationExists } from '@aerie/panel/features/locations/location-lookups';
import { allowedMountsOfNode } from '@aerie/panel/features/mounts/mount-lookups';
import { parseListQuery, type RawQuery } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderList,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import { idParam, validateBody } from '@aerie/panel/http/validate';
import { ACCESS_READ, ACCESS_WRITE } from '@aerie/shared/api-keys/application-keys-wire';
import {
  deployableQuerySchema,
  locationIdToLookUp,
  nodeAttributeNames,
  nodeBodySchema,
  nodeMessages,
} from '@aerie/shared/nodes/nodes-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allocationRoutes } from './allocations.application-routes';
import { nodeTransformer } from './node.transformer';
import { findViableNodes } from './node-capacity';
import { nodeConfiguration, panelRootUrl } from './node-configuration';
import { findNode, findNodeRow, listNodes, nodeListSpec } from './nodes.repository';

/**
 * The query string of nodes/deployable as Laravel's request sees it: `location_ids[]=1`, `location_ids[0]=1`
 * (Paymenter) and `location_ids=1` (not a list, refused by the `array` rule) alike.
 */
function deployableInput(query: RawQuery): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const ids: string[] = [];
  let sawList = false;
  for (const [key, value] of Object.entries(query)) {
    if (/^location_ids\[\d*\]$/.test(key)) {
      sawList = true;
      ids.push(...(Array.isArray(value) ? value : [value ?? '']));
    } else if (key === 'memory' || key === 'disk' || key === 'page' || key === 'location_ids') {
      input[key] = Array.isArray(value) ? value.at(-1) : value;
    }
  }
  if (sawList) input.location_ids = ids;
  return input;
}

/** /api/application/nodes, with deployable, configuration and allocations (reference application API §3.3–3.4, §6). */
export async function nodeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'nodes' } as const;

  const render = async (request: FastifyRequest, id: number) => {
    const node = await findNode(ctx.db, id);
    if (!node) throw notFound();
    return renderItem(renderContextFor(request, ctx), nodeTransformer, node, parseIncludes(request));
  };

  /**
   * The node body as the documentation shows it. The rules themselves depend on the database (`location_id`'s
   * `exists`), so the handlers validate with `nodeBodySchema(<location found>)`, of which this is the passing case.
   */
  const nodeBody = nodeBodySchema(true);

  /** The node body's rules, `location_id`'s `exists` looked up first. */
  const validNodeBody = async (body: unknown) => {
    const locationId = locationIdToLookUp(body);
    const found = locationId !== null && (await locationExists(ctx.db, locationId));
    return validateBody(nodeBodySchema(found), body, { attributes: nodeAttributeNames });
  };

  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, nodeTransformer);

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as RawQuery, nodeListSpec);
    const page = await listNodes(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      nodeTransformer,
      { ...page, page: list.page, perPage: list.perPage },
      parseIncludes(request),
    );
  });

  app.get('/deployable', { config }, async (request) => {
    const query = request.query as RawQuery;
    const input = validateBody(deployableQuerySchema, deployableInput(query));
    const nodes = await findViableNodes(ctx.db, {
      memory: input.memory,
      disk: input.disk,
      locationIds: input.location_ids,
    });
    if (nodes.length === 0) throw new HttpError(400, 'NoViableNodeException', nodeMessages.noViableNode);
    const context = renderContextFor(request, ctx);
    const includes = parseIncludes(request);
    if (input.page === undefined) return renderList(context, nodeTransformer, nodes, includes);
    // Laravel's paginator: an invalid page is page 1; per_page as on every list.
    const { perPage } = parseListQuery({ per_page: query.per_page }, { filters: {}, sorts: {} });
    const page = Math.max(1, input.page);
    return renderPage(
      request,
      context,
      nodeTransformer,
      { rows: nodes.slice((page - 1) * perPage, page * perPage), total: nodes.length, page, perPage },
      includes,
    );
  });

  app.get('/:id', { config }, async (request) =>
    render(request, idParam((request.params as { id: string }).id)),
  );

  // The document carries the daemon token, which writes into every server of the node: a key that may only read
  // nodes does not get it (upstream hands it to any `r_nodes` read key; Aerie asks for read and write).
  app.get(
    '/:id/configuration',
    { config: { ...config, adminAccess: ACCESS_READ | ACCESS_WRITE } },
    async (request) => {
      const node = await findNodeRow(ctx.db, idParam((request.params as { id: string }).id));
      if (!node) throw notFound();
      return nodeConfiguration(
        ctx.secretBox,
        node,
        panelRootUrl(request, ctx.config.appUrl),
        await allowedMountsOfNode(ctx.db, node.id),
      );
    },
  );

  app.post(
    '',
    { config: { ...config, audit: 'node.create', body: nodeBody, summary: 'Create a node' } },
    async (request, reply) => {
      const id = await ctx.nodes.create(await validNodeBody(request.body), audit(request));
      const item = await render(request, id);
      return reply.status(201).send({ ...item, meta: { resource: resourceUrl(request, `nodes/${id}`) } });
    },
  );

  app.patch(
    '/:id',
    {
      config: {
        ...config,
        audit: 'node.update',
        body: nodeBody,
        summary: 'Update a node (every required field again)',
      },
    },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      if (!(await findNodeRow(ctx.db, id))) throw notFound();
      const body = request.body as Record<string, unknown> | null;
      // `reset_secret` is not validated upstream; only a JSON `true` resets the token.
      const resetSecret = typeof body === 'object' && body !== null && body.reset_secret === true;
      await ctx.nodes.update(id, await validNodeBody(body), resetSecret, audit(request));
      return render(request, id);
    },
  );

  app.delete('/:id', { config: { ...config, audit: 'node.delete' } }, async (request, reply) => {
    await ctx.nodes.delete(idParam((request.params as { id: string }).id), audit(request));
    return reply.status(204).send();
  });

  await app.register(allocationRoutes, { ctx, prefix: '/:node/allocations' });
}
