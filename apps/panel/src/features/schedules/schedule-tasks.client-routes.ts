import type { AppContext } from '@aerie/panel/app-context';
import { accessOf, childOf } from '@aerie/panel/features/servers/server-access.hook';
import { HttpError } from '@aerie/panel/http/errors';
import { validateRouteBody } from '@aerie/panel/http/validate';
import { taskBodySchema } from '@aerie/shared/schedules/schedules-bodies';
import { scheduleMessages } from '@aerie/shared/schedules/schedules-messages';
import type { ScheduleTaskResponse } from '@aerie/shared/schedules/schedules-wire';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { presentTask } from './schedule.presenter';
import type { ScheduleRecord, TaskRecord } from './schedule-record';
import { scheduleChild } from './schedules.client-routes';
import { findScheduleTask, findServerSchedule } from './schedules.repository';

interface ScheduleAndTask {
  schedule: ScheduleRecord;
  task: TaskRecord;
}

/** `{schedule}` among the server's schedules and `{task}` among that schedule's tasks: 404 otherwise. */
const taskChild: FastifyContextConfig['serverChild'] = async (db, server, params) => {
  const schedule = await findServerSchedule(db, server.id, params.schedule);
  const task = schedule ? await findScheduleTask(db, schedule.id, params.task) : undefined;
  return schedule && task ? ({ schedule, task } satisfies ScheduleAndTask) : undefined;
};

/** `/api/client/servers/{server}/schedules/{schedule}/tasks*` (reference §7.2 "Schedules and tasks"). */
export async function scheduleTaskRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { scheduleTasks } = ctx;
  const base = '/:server/schedules/:schedule/tasks';

  app.post(
    base,
    {
      config: {
        permission: 'schedule.update',
        serverChild: scheduleChild,
        body: taskBodySchema,
        summary: 'Add a task (last, or at sequence_id with the later ones moved down)',
      },
    },
    async (request): Promise<ScheduleTaskResponse> => {
      const body = validateRouteBody<typeof taskBodySchema>(request);
      return presentTask(
        await scheduleTasks.create(accessOf(request), childOf<ScheduleRecord>(request), body),
      );
    },
  );

  app.post(
    `${base}/:task`,
    {
      config: {
        permission: 'schedule.update',
        serverChild: taskChild,
        body: taskBodySchema,
        summary: 'Change a task (a new sequence_id moves it)',
      },
    },
    async (request): Promise<ScheduleTaskResponse> => {
      const { schedule, task } = childOf<ScheduleAndTask>(request);
      const body = validateRouteBody<typeof taskBodySchema>(request);
      return presentTask(await scheduleTasks.update(accessOf(request), schedule, task, body));
    },
  );

  app.delete(
    `${base}/:task`,
    {
      config: {
        permission: 'schedule.update',
        // Upstream checks this one in its controller, with its own 403.
        permissionDenied: () =>
          new HttpError(403, 'HttpForbiddenException', scheduleMessages.taskDeleteForbidden),
        serverChild: taskChild,
        summary: 'Delete a task (the later ones move up)',
      },
    },
    async (request, reply) => {
      const { schedule, task } = childOf<ScheduleAndTask>(request);
      await scheduleTasks.remove(accessOf(request), schedule, task);
      return reply.status(204).send();
    },
  );
}
