import type { AppContext } from '@aerie/panel/app-context';
import { signedInUser } from '@aerie/panel/features/auth/client-api-auth';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { presentPagination } from '@aerie/panel/http/pagination';
import type { ActivityLogListResponse } from '@aerie/shared/activity/activity-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { presentActivity } from './activity.presenter';
import type { ActivityRecord } from './activity.repository';
import { parseActivityListQuery } from './activity-list.query';

/** The page of a log as the client API answers it. */
function presentPage(
  request: FastifyRequest,
  page: { records: ActivityRecord[]; total: number },
  query: ReturnType<typeof parseActivityListQuery>,
): ActivityLogListResponse {
  const viewer = signedInUser(request);
  const options = {
    includeActor: query.includeActor,
    avatarTemplate: request.server.ctx.config.avatarUrlTemplate,
  };
  return {
    object: 'list',
    data: page.records.map((record) => presentActivity(record, viewer, options)),
    meta: presentPagination(request, {
      total: page.total,
      count: page.records.length,
      perPage: query.perPage,
      currentPage: query.page,
    }),
  };
}

const summary = (what: string) =>
  `${what} (page, per_page ≤ 100, filter[event], sort=timestamp|-timestamp, include=actor)`;

/** `GET /api/client/account/activity`: entries about the signed-in user's account (reference §7.1). */
export async function accountActivityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('', { config: { summary: summary('The account’s activity log') } }, async (request) => {
    const query = parseActivityListQuery(request.query as Record<string, string | string[]>);
    const page = await ctx.activityLists.forAccount(signedInUser(request), query);
    return presentPage(request, page, query);
  });
}

/** `GET /api/client/servers/{server}/activity` (`activity.read`, reference §7.2 Core). */
export async function serverActivityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get(
    '/:server/activity',
    { config: { permission: 'activity.read', summary: summary('The server’s activity log') } },
    async (request) => {
      const query = parseActivityListQuery(request.query as Record<string, string | string[]>);
      const page = await ctx.activityLists.forServer(accessOf(request), query);
      return presentPage(request, page, query);
    },
  );
}
