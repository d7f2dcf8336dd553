import type { AppContext } from '@aerie/panel/app-context';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import type { User } from '@aerie/panel/features/users/user';
import { parsePage } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderList,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { displayError, notFound, validationFailed } from '@aerie/panel/http/errors';
import { idParam, validateBody, validateRouteBody } from '@aerie/panel/http/validate';
import { eggUpdateBodySchema, eggVariableBodySchema, nestBodySchema } from '@aerie/shared/eggs/egg-bodies';
import { eggImportFileBodySchema, isEggImportFileBody } from '@aerie/shared/eggs/egg-import-bodies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eggTransformer, eggVariableTransformer } from './egg.transformer';
import { buildEggExport, eggExportFileName, phpPrettyJson } from './egg-export';
import { findEggInNest, findEggVariable, findNest, listEggsOfNests, listNests } from './eggs.repository';
import { nestTransformer } from './nest.transformer';
import { EggExportError } from './ptdl/egg-export-error';
import { parseEggExport, parseEggExportText } from './ptdl/parse-egg-export';

/**
 * The egg export of an import request: the body itself (a JSON export), or the text of its `file` field (a JSON
 * export, or a Pelican YAML one).
 * @throws HttpError 422 for an export with invalid fields (one entry per problem), 400 DisplayException when the
 *   body is not an egg export at all (neither JSON nor YAML, not an object, not PTDL_v1/v2 or PLCN_v1–v3, too
 *   large, YAML aliases that expand too far)
 */
function eggFromBody(body: unknown) {
  try {
    if (isEggImportFileBody(body)) {
      return parseEggExportText(validateBody(eggImportFileBodySchema, body, { trimStrings: false }).file);
    }
    return parseEggExport(body);
  } catch (error) {
    if (!(error instanceof EggExportError)) throw error;
    if (error.code !== 'invalid_egg') throw displayError(error.message);
    throw validationFailed(
      error.issues.map((issue) => ({
        code: 'ValidationException',
        status: '422',
        detail: issue.path ? `${issue.path} ${issue.message}` : issue.message,
        meta: { source_field: issue.path, rule: '' },
      })),
    );
  }
}

/**
 * /api/application/nests and their eggs (reference application API §3.7): `nests` for the nests themselves,
 * `eggs` for everything under `nests/{nest}/eggs` (listing a nest's eggs needs eggs, not nests). The writes
 * other than the import are Aerie's (upstream has them in its admin pages): nests, egg edits, export and the
 * egg's variables.
 */
export async function nestRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const nests = { adminResource: 'nests' } as const;
  const eggs = { adminResource: 'eggs' } as const;

  /** @throws HttpError 404 for an unknown or non-numeric nest id */
  const nestOf = async (params: unknown) => {
    const nest = await findNest(ctx.db, idParam((params as { id: string }).id));
    if (!nest) throw notFound();
    return nest;
  };

  /** @throws HttpError 404 for an unknown egg, or an egg of another nest */
  const eggOf = async (params: unknown) => {
    const nest = await nestOf(params);
    const egg = await findEggInNest(ctx.db, nest.id, idParam((params as { egg: string }).egg));
    if (!egg) throw notFound();
    return egg;
  };

  /** @throws HttpError 404 for an unknown variable, or one of another egg */
  const variableOf = async (params: unknown) => {
    const egg = await eggOf(params);
    const variable = await findEggVariable(
      ctx.db,
      egg.id,
      idParam((params as { variable: string }).variable),
    );
    if (!variable) throw notFound();
    return variable;
  };

  const renderNest = (request: FastifyRequest, nest: Awaited<ReturnType<typeof nestOf>>) =>
    renderItem(renderContextFor(request, ctx), nestTransformer, nest, parseIncludes(request));
  const renderEgg = (request: FastifyRequest, egg: Awaited<ReturnType<typeof eggOf>>) =>
    renderItem(renderContextFor(request, ctx), eggTransformer, egg, parseIncludes(request));
  const renderVariable = (request: FastifyRequest, variable: Awaited<ReturnType<typeof variableOf>>) =>
    renderItem(renderContextFor(request, ctx), eggVariableTransformer, variable, new Map());

  // The recorders of the changes, each rendering its object as the route answers with it.
  const auditNest = (request: FastifyRequest) => auditFor(ctx.audit, request, nestTransformer);
  const auditEgg = (request: FastifyRequest) => auditFor(ctx.audit, request, eggTransformer);
  const auditVariable = (request: FastifyRequest) => auditFor(ctx.audit, request, eggVariableTransformer);

  app.get('', { config: nests }, async (request) => {
    const page = parsePage(request.query as Record<string, string>);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      nestTransformer,
      { ...(await listNests(ctx.db, page)), ...page },
      parseIncludes(request),
    );
  });

  app.get('/:id', { config: nests }, async (request) =>
    renderItem(
      renderContextFor(request, ctx),
      nestTransformer,
      await nestOf(request.params),
      parseIncludes(request),
    ),
  );

  app.get('/:id/eggs', { config: eggs }, async (request) => {
    const nest = await nestOf(request.params);
    return renderList(
      renderContextFor(request, ctx),
      eggTransformer,
      await listEggsOfNests(ctx.db, [nest.id]),
      parseIncludes(request),
    );
  });

  app.get('/:id/eggs/:egg', { config: eggs }, async (request) =>
    renderEgg(request, await eggOf(request.params)),
  );

  // An addition to upstream: the egg file (PTDL_v1/v2 JSON, Pelican PLCN JSON or YAML) imported into this nest
  // with the panel's importer.
  app.post('/:id/eggs/import', { config: { ...eggs, audit: 'egg.import' } }, async (request, reply) => {
    const nest = await nestOf(request.params);
    const { egg, created } = await ctx.eggs.importInto(nest, eggFromBody(request.body), auditEgg(request));
    const item = await renderItem(
      renderContextFor(request, ctx),
      eggTransformer,
      egg,
      parseIncludes(request),
    );
    return reply
      .status(created ? 201 : 200)
      .send({ ...item, meta: { resource: resourceUrl(request, `nests/${egg.nestId}/eggs/${egg.id}`) } });
  });

  app.post(
    '',
    {
      config: {
        ...nests,
        audit: 'nest.create',
        body: nestBodySchema,
        summary: 'Create a nest (author: the calling admin)',
      },
    },
    async (request, reply) => {
      const body = validateRouteBody<typeof nestBodySchema>(request);
      const nest = await ctx.eggs.createNest(body, (request.user as User).email, auditNest(request));
      return reply.status(201).send({
        ...(await renderNest(request, nest)),
        meta: { resource: resourceUrl(request, `nests/${nest.id}`) },
      });
    },
  );

  app.patch(
    '/:id',
    {
      config: {
        ...nests,
        audit: 'nest.update',
        body: nestBodySchema,
        summary: "Change a nest's name and description",
      },
    },
    async (request) => {
      const nest = await nestOf(request.params);
      const body = validateRouteBody<typeof nestBodySchema>(request);
      return renderNest(request, await ctx.eggs.updateNest(nest, body, auditNest(request)));
    },
  );

  app.delete('/:id', { config: { ...nests, audit: 'nest.delete' } }, async (request, reply) => {
    await ctx.eggs.deleteNest(await nestOf(request.params), auditNest(request));
    return reply.status(204).send();
  });

  app.patch(
    '/:id/eggs/:egg',
    {
      config: {
        ...eggs,
        audit: 'egg.update',
        body: eggUpdateBodySchema,
        summary: 'Change an egg (the fields sent)',
      },
    },
    async (request) => {
      const egg = await eggOf(request.params);
      const body = validateRouteBody<typeof eggUpdateBodySchema>(request, { trimStrings: false });
      return renderEgg(request, await ctx.eggs.updateEgg(egg, body, auditEgg(request)));
    },
  );

  app.delete('/:id/eggs/:egg', { config: { ...eggs, audit: 'egg.delete' } }, async (request, reply) => {
    await ctx.eggs.deleteEgg(await eggOf(request.params), auditEgg(request));
    return reply.status(204).send();
  });

  // The PTDL_v2 file upstream's admin "Export" button downloads.
  app.get('/:id/eggs/:egg/export', { config: eggs }, async (request, reply) => {
    const egg = await eggOf(request.params);
    const file = await buildEggExport(ctx.db, egg, new Date());
    return reply
      .header('content-type', 'application/json')
      .header('content-disposition', `attachment; filename=${eggExportFileName(egg.name)}`)
      .send(phpPrettyJson(file));
  });

  app.post(
    '/:id/eggs/:egg/variables',
    {
      config: {
        ...eggs,
        audit: 'egg_variable.create',
        body: eggVariableBodySchema,
        summary: 'Add a variable to an egg',
      },
    },
    async (request, reply) => {
      const egg = await eggOf(request.params);
      const body = validateRouteBody<typeof eggVariableBodySchema>(request);
      const variable = await ctx.eggs.createVariable(egg, body, auditVariable(request));
      return reply.status(201).send(await renderVariable(request, variable));
    },
  );

  app.patch(
    '/:id/eggs/:egg/variables/:variable',
    {
      config: {
        ...eggs,
        audit: 'egg_variable.update',
        body: eggVariableBodySchema,
        summary: 'Change an egg variable',
      },
    },
    async (request) => {
      const variable = await variableOf(request.params);
      const body = validateRouteBody<typeof eggVariableBodySchema>(request);
      return renderVariable(request, await ctx.eggs.updateVariable(variable, body, auditVariable(request)));
    },
  );

  app.delete(
    '/:id/eggs/:egg/variables/:variable',
    { config: { ...eggs, audit: 'egg_variable.delete' } },
    async (request, reply) => {
      await ctx.eggs.deleteVariable(await variableOf(request.params), auditVariable(request));
      return reply.status(204).send();
    },
  );
}
