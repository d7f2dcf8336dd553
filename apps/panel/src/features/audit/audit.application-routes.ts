import type { AppContext } from '@aerie/panel/app-context';
import { renderContextFor } from '@aerie/panel/features/auth/application-api-auth';
import { parseListQuery } from '@aerie/panel/http/application/list-query';
import { renderItem, renderPage } from '@aerie/panel/http/application/transformer';
import { notFound } from '@aerie/panel/http/errors';
import { idParam } from '@aerie/panel/http/validate';
import type { FastifyInstance } from 'fastify';
import { auditListSpec, findAuditEntry, listAuditEntries } from './audit.repository';
import { auditEntryTransformer } from './audit-entry.transformer';

/** /api/application/audit-log: the admin audit log, read only (no route changes or removes an entry). */
export async function auditLogRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'audit_log' } as const;

  app.get('', { config }, async (request) => {
    const list = parseListQuery(request.query as Record<string, string>, auditListSpec);
    const page = await listAuditEntries(ctx.db, list);
    return renderPage(
      request,
      renderContextFor(request, ctx),
      auditEntryTransformer,
      { ...page, page: list.page, perPage: list.perPage },
      new Map(),
    );
  });

  app.get('/:id', { config }, async (request) => {
    const entry = await findAuditEntry(ctx.db, idParam((request.params as { id: string }).id));
    if (!entry) throw notFound();
    return renderItem(renderContextFor(request, ctx), auditEntryTransformer, entry, new Map());
  });
}
