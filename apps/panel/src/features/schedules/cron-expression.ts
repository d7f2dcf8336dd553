import { displayError } from '@aerie/panel/http/errors';
import { scheduleLimits } from '@aerie/shared/schedules/schedules-bodies';
import { scheduleMessages } from '@aerie/shared/schedules/schedules-messages';
import { CronExpressionParser } from 'cron-parser';

/** The five fields of a schedule's cron expression, as saved. */
export interface CronFields {
  minute: string;
  hour: string;
  dayOfMonth: string;
  month: string;
  dayOfWeek: string;
}

/** Three-letter month and weekday names (`jan`, `thu`), which may hold an H of their own. */
const NAMES = /[a-z]{3}/gi;

/**
 * Whether each field can stand alone: present, without spaces (a space would shift the fields after it, "1 2" as a
 * minute making the hour 2), and without Jenkins' `H`, cron-parser's extension that upstream's library lacks and
 * whose hashed value would move the run from one parse to the next.
 */
const fieldsStandAlone = (fields: CronFields) =>
  Object.values(fields).every(
    (field) =>
      field.length > 0 &&
      field.length <= scheduleLimits.cronFieldMax &&
      !/\s/.test(field) &&
      !field.replace(NAMES, '').includes('H'),
  );

/**
 * The first run strictly after `from` of the cron expression `minute hour day-of-month month day-of-week`, read in
 * `timezone` (the panel's APP_TIMEZONE), with cron-parser: each field is checked against its own range and syntax
 * (lists, ranges, steps, names, `L`, `W`, `#`, `?`), as upstream's dragonmantank/cron-expression does.
 * @throws HttpError 400 DisplayException "The cron data provided does not evaluate to a valid expression." when a
 *   field is not cron, or the expression never fires (31 February)
 */
export function nextRunAt(fields: CronFields, from: Date, timezone: string): Date {
  if (!fieldsStandAlone(fields)) throw displayError(scheduleMessages.invalidCron);
  const { minute, hour, dayOfMonth, month, dayOfWeek } = fields;
  try {
    const expression = CronExpressionParser.parse(`0 ${minute} ${hour} ${dayOfMonth} ${month} ${dayOfWeek}`, {
      currentDate: from,
      tz: timezone,
    });
    return expression.next().toDate();
  } catch {
    throw displayError(scheduleMessages.invalidCron);
  }
}
