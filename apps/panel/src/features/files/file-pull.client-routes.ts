import type { AppContext } from '@aerie/panel/app-context';
import { relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import { serverActivity } from '@aerie/panel/features/activity/activity-log';
import { accessOf } from '@aerie/panel/features/servers/server-access.hook';
import { tooManyRequests } from '@aerie/panel/http/errors';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { pullFileBodySchema } from '@aerie/shared/files/file-bodies';
import type { DaemonPullFileBody } from '@aerie/shared/files/file-wire';
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { untrimmed } from './untrimmed';

/** Pterodactyl's `throttle:10,5` on the route: 10 pulls per 5 minutes per user. */
export const PULL_THROTTLE = { points: 10, windowSeconds: 5 * 60 } as const;

/** The URL as the activity log keeps it: a user name and password in it are never stored. */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

/**
 * `POST …/files/pull` (PullFileRequest): after the server access hook (404 → 409 → `file.create` 403), the user's
 * throttle (429), the body (422), then the daemon, which judges the destination and the file name (its 400s are
 * relayed). Answers 204 as Pterodactyl, also with `foreground` (which waits until the file is whole). The pull is
 * logged once the daemon accepted it (`server:file.pull` with `directory`, `url` and the `filename` if given).
 */
export async function filePullRoute(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { daemon } = ctx;
  const throttle = ctx.shared.counter({ name: 'file-pull', ...PULL_THROTTLE });

  app.post(
    '/:server/files/pull',
    {
      config: {
        permission: 'file.create',
        body: pullFileBodySchema,
        summary: 'Download a file from a URL into the server (10 per 5 minutes)',
      },
    },
    async (request, reply) => {
      const access = accessOf(request);
      try {
        await throttle.consume(access.user.uuid);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), PULL_THROTTLE.points);
      }
      const body = validateRouteBody<typeof pullFileBodySchema>(request, untrimmed);
      const directory = body.directory ?? '/';
      const sent: DaemonPullFileBody = {
        url: body.url,
        root: directory,
        ...(body.filename ? { file_name: body.filename } : {}),
        ...(body.use_header === undefined ? {} : { use_header: body.use_header }),
        ...(body.foreground === undefined ? {} : { foreground: body.foreground }),
      };
      await relayDaemonErrors(daemon.forServer(access.node, access.server.uuid).files.pull(sent));
      await ctx.activity.record(ctx.db, {
        event: 'server:file.pull',
        ...serverActivity(access),
        properties: {
          directory,
          url: withoutCredentials(body.url),
          ...(body.filename ? { filename: body.filename } : {}),
        },
      });
      return reply.status(204).send();
    },
  );
}
