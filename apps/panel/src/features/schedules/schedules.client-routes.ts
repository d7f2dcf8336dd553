import type { AppContext } from '@aerie/panel/app-context';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { scheduleBodySchema } from '@aerie/shared/schedules/schedules-bodies';
import type { ScheduleListResponse, ScheduleResponse } from '@aerie/shared/schedules/schedules-wire';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { presentSchedule } from './schedule.presenter';
import type { ScheduleRecord } from './schedule-record';
import { findServerSchedule } from './schedules.repository';
import type { ScheduleWithTasks } from './schedules.service';

/** `{schedule}` among the server's own schedules (404 before any other check, as upstream binds it). */
export const scheduleChild: FastifyContextConfig['serverChild'] = (db, server, params) =>
  findServerSchedule(db, server.id, params.schedule);

const present = ({ schedule, tasks }: ScheduleWithTasks) => presentSchedule(schedule, tasks);

/**
 * `/api/client/servers/{server}/schedules*` (reference §7.2 "Schedules and tasks"). Tasks are always included, so
 * `?include=tasks` changes nothing.
 */
export async function scheduleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { schedules, scheduleRunner } = ctx;
  const base = '/:server/schedules';
  // Runs started by Run Now end, their schedules idle again, before the database closes.
  app.addHook('onClose', () => scheduleRunner.stop());

  app.get(
    base,
    { config: { permission: 'schedule.read', summary: 'List the server’s schedules with their tasks' } },
    async (request): Promise<ScheduleListResponse> => ({
      object: 'list',
      data: (await schedules.list(accessOf(request))).map(present),
    }),
  );

  app.post(
    base,
    {
      config: {
        permission: 'schedule.create',
        body: scheduleBodySchema,
        summary: 'Create a schedule (its next run computed from the cron fields in the panel’s time zone)',
      },
    },
    async (request): Promise<ScheduleResponse> => {
      const body = validateRouteBody<typeof scheduleBodySchema>(request);
      return present(await schedules.create(accessOf(request), body));
    },
  );

  app.get(
    `${base}/:schedule`,
    {
      config: {
        permission: 'schedule.read',
        serverChild: scheduleChild,
        summary: 'One schedule with its tasks',
      },
    },
    async (request): Promise<ScheduleResponse> =>
      present(await schedules.view(childOf<ScheduleRecord>(request))),
  );

  app.post(
    `${base}/:schedule`,
    {
      config: {
        permission: 'schedule.update',
        serverChild: scheduleChild,
        body: scheduleBodySchema,
        summary: 'Change a schedule (switching is_active also ends a stuck Processing state)',
      },
    },
    async (request): Promise<ScheduleResponse> => {
      const body = validateRouteBody<typeof scheduleBodySchema>(request);
      return present(await schedules.update(accessOf(request), childOf<ScheduleRecord>(request), body));
    },
  );

  app.post(
    `${base}/:schedule/execute`,
    {
      config: {
        permission: 'schedule.update',
        serverChild: scheduleChild,
        summary: 'Run the schedule now (202; nothing more starts while it is processing)',
      },
    },
    async (request, reply) => {
      await schedules.execute(accessOf(request), childOf<ScheduleRecord>(request));
      return reply.status(202).send([]);
    },
  );

  app.delete(
    `${base}/:schedule`,
    {
      config: {
        permission: 'schedule.delete',
        serverChild: scheduleChild,
        summary: 'Delete a schedule and its tasks',
      },
    },
    async (request, reply) => {
      await schedules.remove(accessOf(request), childOf<ScheduleRecord>(request));
      return reply.status(204).send();
    },
  );
}
