import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { canRead, renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderList,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { forbidden, notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import { applicationApiMessages } from '@aerie/shared/application-api/application-api-messages';
import {
  mountAttributeNames,
  mountBodySchema,
  mountEggsBodySchema,
  mountNodesBodySchema,
  mountServersBodySchema,
} from '@aerie/shared/mounts/mounts-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mountTransformer } from './mount.transformer';
import { findMount, listMounts, type MountRelation, mountListSpec } from './mounts.repository';
import { mountAttachmentsSubject } from './mounts.service';

/** The bodies that attach a mount to eggs, nodes or servers, by relation. */
const relationBodies = {
  eggs: mountEggsBodySchema,
  nodes: mountNodesBodySchema,
  servers: mountServersBodySchema,
} as const;
const singular = { eggs: 'egg', nodes: 'node', servers: 'server' } as const;

/** /api/application/mounts (Pelican's routes): mounts, and the eggs, nodes and servers they are attached to. */
export async function mountRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'mounts' } as const;
  const bodyOptions = { attributes: mountAttributeNames };
  const mountOf = async (request: FastifyRequest) => {
    const mount = await findMount(ctx.db, idParam((request.params as { id: string }).id));
    if (!mount) throw notFound();
    return mount;
  };
  const render = (request: FastifyRequest, mount: Awaited<ReturnType<typeof mountOf>>) =>
    renderItem(renderContextFor(request, ctx), mountTransformer, mount, parseIncludes(request));
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, mountTransformer);
  // An attach or detach changes which eggs, nodes or servers the mount is on, not the mount itself.
  const auditAttachments = (request: FastifyRequest) => auditFor(ctx.audit, request, mountAttachmentsSubject);

  app.get('', { config: { ...config, summary: 'List mounts' } }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, mountListSpec);
    const page = await listMounts(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      mountTransformer,
      { ...page, page: list.page, perPage: list.perPage },
      parseIncludes(request),
    );
  });

  app.get('/:id', { config: { ...config, summary: 'View a mount' } }, async (request) =>
    render(request, await mountOf(request)),
  );

  app.post(
    '',
    { config: { ...config, audit: 'mount.create', body: mountBodySchema, summary: 'Create a mount' } },
    async (request, reply) => {
      const body = validateRouteBody<typeof mountBodySchema>(request, bodyOptions);
      const mount = await ctx.mounts.create(body, audit(request));
      const item = await render(request, mount);
      return reply
        .status(201)
        .send({ ...item, meta: { resource: resourceUrl(request, `mounts/${mount.id}`) } });
    },
  );

  app.patch(
    '/:id',
    {
      config: {
        ...config,
        audit: 'mount.update',
        body: mountBodySchema,
        summary: 'Update a mount (every required field again)',
      },
    },
    async (request) => {
      const id = (await mountOf(request)).id;
      const body = validateRouteBody<typeof mountBodySchema>(request, bodyOptions);
      return render(request, await ctx.mounts.update(id, body, audit(request)));
    },
  );

  app.delete(
    '/:id',
    { config: { ...config, audit: 'mount.delete', summary: 'Delete a mount no server uses' } },
    async (request, reply) => {
      await ctx.mounts.delete(idParam((request.params as { id: string }).id), audit(request));
      return reply.status(204).send();
    },
  );

  for (const relation of ['eggs', 'nodes', 'servers'] as const satisfies readonly MountRelation[]) {
    const body = relationBodies[relation];
    app.get(
      `/:id/${relation}`,
      { config: { ...config, summary: `List the ${relation} a mount is attached to` } },
      async (request) => {
        const mount = await mountOf(request);
        const include = ctx.applicationIncludes.relationsOf(mountTransformer)[relation];
        if (!include) throw new Error(`mount has no ${relation} include`);
        // Listing a mount's servers shows servers: the key needs that resource too, as the include does.
        if (include.gate && !canRead(request, include.gate))
          throw forbidden(applicationApiMessages.unauthorized);
        const items = (await include.load(ctx.db, [mount])).get(mount) as unknown[];
        const context = renderContextFor(request, ctx);
        return renderList(
          context,
          ctx.applicationIncludes.transformer(singular[relation]),
          items,
          parseIncludes(request),
        );
      },
    );
    app.post(
      `/:id/${relation}`,
      { config: { ...config, audit: 'mount.attach', body, summary: `Attach a mount to ${relation}` } },
      async (request) => {
        const id = (await mountOf(request)).id;
        const ids = (validateRouteBody<typeof body>(request, bodyOptions) as Record<MountRelation, number[]>)[
          relation
        ];
        return render(request, await ctx.mounts.attach(id, relation, ids, auditAttachments(request)));
      },
    );
    app.delete(
      `/:id/${relation}/:other`,
      {
        config: { ...config, audit: 'mount.detach', summary: `Detach a mount from one of its ${relation}` },
      },
      async (request, reply) => {
        const id = (await mountOf(request)).id;
        const other = idParam((request.params as { other: string }).other);
        await ctx.mounts.detach(id, relation, other, auditAttachments(request));
        return reply.status(204).send();
      },
    );
  }
}
