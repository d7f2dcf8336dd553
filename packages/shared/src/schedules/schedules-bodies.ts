import { z } from 'zod';
import { ignoreRulesOverLimits } from '../backups/ignore-limits';
import { requiredNumber } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableString, requiredString, rule } from '../validation/rules';

/** Task actions (reference §6 `schedule_task`), in the order the page lists them. */
export const taskActions = ['command', 'power', 'backup'] as const;
export type TaskAction = (typeof taskActions)[number];

/** What a `power` task's payload may be (spec §5 "Power payloads"). */
export const powerPayloads = ['start', 'restart', 'stop', 'kill'] as const;
export type PowerPayload = (typeof powerPayloads)[number];

/** Limits of schedules and tasks (reference §0, §7.2; spec §5, §9). */
export const scheduleLimits = {
  nameMax: 191,
  /** A cron field is stored in a 191-character column; a longer one is not a cron field anyone means. */
  cronFieldMax: 191,
  timeOffsetMin: 0,
  timeOffsetMax: 900,
  /** Tasks per schedule unless SCHEDULE_TASK_LIMIT says otherwise (upstream's per_schedule_task_limit). */
  defaultTaskLimit: 10,
} as const;

const missing = (value: unknown) => value === undefined || value === null;
const BOOLEAN_INPUT = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ['1', true],
  ['0', false],
]);

/** `filled|boolean`: may be left out; when sent, null (or "") fails `filled` and anything else must be a boolean. */
const filledBoolean = () =>
  z
    .custom<unknown>()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      if (value === null) ctx.addIssue({ code: 'custom', message: 'filled' satisfies LaravelRule });
      else if (!BOOLEAN_INPUT.has(value)) {
        ctx.addIssue({ code: 'custom', message: 'boolean' satisfies LaravelRule });
      }
    })
    .transform((value) => (value === undefined ? undefined : (BOOLEAN_INPUT.get(value) as boolean)))
    .optional();

/** `sometimes|required|boolean`: may be left out; when sent, null fails `required`. */
const sometimesBoolean = () =>
  z
    .custom<unknown>()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      if (value === null) ctx.addIssue({ code: 'custom', message: 'required' satisfies LaravelRule });
      else if (!BOOLEAN_INPUT.has(value)) {
        ctx.addIssue({ code: 'custom', message: 'boolean' satisfies LaravelRule });
      }
    })
    .transform((value) => (value === undefined ? undefined : (BOOLEAN_INPUT.get(value) as boolean)))
    .optional();

/**
 * PHP's `(bool)` cast, which upstream applies to `only_when_online` without validating it: false, 0, "0", "",
 * null, [] and a missing key are false, anything else true. Aerie also reads the string "false" as false.
 */
export const castBoolean = (value: unknown): boolean =>
  !(
    value === undefined ||
    value === null ||
    value === false ||
    value === 0 ||
    value === '' ||
    value === '0' ||
    value === 'false' ||
    (Array.isArray(value) && value.length === 0)
  );

/**
 * POST …/schedules and POST …/schedules/{schedule} (reference §7.2): `name` required|string|max:191, `is_active`
 * filled|boolean, `minute`, `hour`, `day_of_month`, `day_of_week` required|string; `month` is read but not
 * validated and `only_when_online` is cast to a boolean, as upstream does. Whether the five cron fields make an
 * expression is the panel's check after these rules (400 `invalidCron`).
 */
export const scheduleBodySchema = z.object({
  name: requiredString().max(scheduleLimits.nameMax, rule('max')),
  is_active: filledBoolean(),
  minute: requiredString(),
  hour: requiredString(),
  day_of_month: requiredString(),
  month: z.unknown().optional(),
  day_of_week: requiredString(),
  only_when_online: z.unknown().optional().transform(castBoolean),
});

/** `required|in:…`: missing or null fails `required`, any other value not in the list `in`. */
const requiredIn = <const T extends readonly string[]>(values: T) =>
  z.custom<unknown>().superRefine((value, ctx) => {
    if (missing(value)) ctx.addIssue({ code: 'custom', message: 'required' satisfies LaravelRule });
    else if (!values.includes(value as string)) {
      ctx.addIssue({ code: 'custom', message: 'in' satisfies LaravelRule });
    }
  }) as unknown as z.ZodType<T[number]>;

/** `sometimes|required|numeric|min:1`. */
const sequenceId = () =>
  z
    .custom<unknown>()
    .superRefine((value, ctx) => {
      if (value === null) ctx.addIssue({ code: 'custom', message: 'required' satisfies LaravelRule });
    })
    .pipe(requiredNumber({ min: 1 }))
    .optional();

/**
 * POST …/schedules/{schedule}/tasks and …/tasks/{task} (reference §7.2): `action` required|in:command,power,backup;
 * `payload` required_unless:action,backup|string|nullable; `time_offset` required|numeric|min:0|max:900;
 * `sequence_id` sometimes|required|numeric|min:1; `continue_on_failure` sometimes|required|boolean. A backup task's
 * payload (its ignored files) is held to the node's ignore-rule bounds (backups/ignore-limits.ts).
 */
export const taskBodySchema = z
  .object({
    action: requiredIn(taskActions),
    payload: nullableString(),
    time_offset: requiredNumber({ min: scheduleLimits.timeOffsetMin }).refine(
      (value) => value <= scheduleLimits.timeOffsetMax,
      { error: 'max' satisfies LaravelRule, params: { max: scheduleLimits.timeOffsetMax, numeric: true } },
    ),
    sequence_id: sequenceId(),
    continue_on_failure: sometimesBoolean(),
  })
  .superRefine(
    (body, ctx) => {
      if (body.action !== 'backup' && missing(body.payload)) {
        ctx.addIssue({
          code: 'custom',
          path: ['payload'],
          message: 'required_unless' satisfies LaravelRule,
          params: { other: 'action', values: 'backup' },
        });
      }
      // A backup task's payload is its ignored files: refused past the node's bounds, as a backup's `ignored` is.
      const problem =
        body.action === 'backup' && typeof body.payload === 'string'
          ? ignoreRulesOverLimits(body.payload, 'The ignored files')
          : undefined;
      if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['payload'], message: problem });
    },
    // Laravel checks every field's rules, whatever the others' outcome.
    { when: () => true },
  );

export type ScheduleBody = z.output<typeof scheduleBodySchema>;
export type TaskBody = z.output<typeof taskBodySchema>;
