import type { AppContext } from '@aerie/panel/app-context';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parsePage } from '@aerie/panel/http/application/list-query';
import {
  parseIncludes,
  renderItem,
  renderList,
  renderPage,
  resourceUrl,
} from '@aerie/panel/http/application/transformer';
import { displayError, notFound, validationFailed } from '@aerie/panel/http/errors';
import { idParam, validateBody } from '@aerie/panel/http/validate';
import { eggImportFileBodySchema, isEggImportFileBody } from '@aerie/shared/eggs/egg-import-bodies';
import type { FastifyInstance } from 'fastify';
import { eggTransformer } from './egg.transformer';
import { findEggInNest, findNest, listEggsOfNests, listNests } from './eggs.repository';
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
 * `eggs` for everything under `nests/{nest}/eggs` (listing a nest's eggs needs eggs, not nests).
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

  app.get('', { config: nests }, async (request) => {
    const page = parsePage(request.query as Record<string, string>);
    return renderPage(
      request,
      renderContextFor(request, ctx.db),
      nestTransformer,
      { ...(await listNests(ctx.db, page)), ...page },
      parseIncludes(request),
    );
  });

  app.get('/:id', { config: nests }, async (request) =>
    renderItem(
      renderContextFor(request, ctx.db),
      nestTransformer,
      await nestOf(request.params),
      parseIncludes(request),
    ),
  );

  app.get('/:id/eggs', { config: eggs }, async (request) => {
    const nest = await nestOf(request.params);
    return renderList(
      renderContextFor(request, ctx.db),
      eggTransformer,
      await listEggsOfNests(ctx.db, [nest.id]),
      parseIncludes(request),
    );
  });

  app.get('/:id/eggs/:egg', { config: eggs }, async (request) => {
    const nest = await nestOf(request.params);
    const egg = await findEggInNest(ctx.db, nest.id, idParam((request.params as { egg: string }).egg));
    if (!egg) throw notFound();
    return renderItem(renderContextFor(request, ctx.db), eggTransformer, egg, parseIncludes(request));
  });

  // An addition to upstream: the egg file (PTDL_v1/v2 JSON, Pelican PLCN JSON or YAML) imported into this nest
  // with the panel's importer.
  app.post('/:id/eggs/import', { config: eggs }, async (request, reply) => {
    const nest = await nestOf(request.params);
    const { egg, created } = await ctx.eggs.importInto(nest, eggFromBody(request.body));
    const item = await renderItem(
      renderContextFor(request, ctx.db),
      eggTransformer,
      egg,
      parseIncludes(request),
    );
    return reply
      .status(created ? 201 : 200)
      .send({ ...item, meta: { resource: resourceUrl(request, `nests/${egg.nestId}/eggs/${egg.id}`) } });
  });
}
