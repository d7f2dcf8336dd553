import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { BackupsService } from '@aerie/panel/features/backups/backups.service';
import type { PowerService } from '@aerie/panel/features/servers/power.service';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ScheduleRunner } from './schedule-runner';
import { ScheduleTasksService } from './schedule-tasks.service';
import { ScheduleTicker } from './schedule-ticker';
import { SchedulesService } from './schedules.service';

/**
 * Schedules and their tasks, and the worker that runs them: `scheduleRunner` runs claimed schedules (Run Now
 * included), `scheduleTicker` claims the due ones; `aerie up` and `aerie panel` start the ticker with the app and
 * stop it with it (cli/serve.ts).
 */
export function createSchedulesFeature(
  { db, clock, config, daemon, log }: Infrastructure,
  { activity, power, backups }: { activity: ActivityLog; power: PowerService; backups: BackupsService },
) {
  const scheduleRunner = new ScheduleRunner({
    db,
    clock,
    power,
    backups,
    daemon,
    log,
    timezone: config.timezone,
  });
  return {
    schedules: new SchedulesService({
      db,
      clock,
      activity,
      runner: scheduleRunner,
      timezone: config.timezone,
    }),
    scheduleTasks: new ScheduleTasksService({ db, clock, activity, taskLimit: config.scheduleTaskLimit }),
    scheduleRunner,
    scheduleTicker: new ScheduleTicker({ db, clock, runner: scheduleRunner, log, dataDir: config.dataDir }),
  };
}
