import { z } from 'zod';
import {
  type PowerPayload,
  powerPayloads,
  scheduleLimits,
  type TaskAction,
  taskActions,
} from './schedules-bodies';
import { scheduleMessages } from './schedules-messages';

/**
 * What the Schedules pages' forms check before sending, in the spec's words (§5 "Task action", "Schedule
 * defaults"); the API's own rules are in schedules-bodies.ts. The spec gives no text for an empty schedule name:
 * the API's own wording is used.
 */
export const scheduleFormMessages = {
  nameRequired: 'The name field is required.',
  nameMax: `The name may not be greater than ${scheduleLimits.nameMax} characters.`,
  cronRequired: 'Every cron field needs a value; use * for any.',
} as const;

export const taskFormMessages = {
  payloadRequired: 'A task payload must be provided.',
  timeOffsetInvalid: 'The time offset must be a valid number between 0 and 900.',
  timeOffsetRequired: 'A time offset value must be provided.',
  timeOffsetMin: 'The time offset must be at least 0 seconds.',
  timeOffsetMax: 'The time offset must be less than 900 seconds.',
  /** Shown instead of the backup action's form when the server's backup limit is 0 (the API answers 403 too). */
  backupLimitZero: scheduleMessages.backupLimitZero,
} as const;

/** The action picker's labels (spec §5). */
export const taskActionLabels: Record<TaskAction, string> = {
  command: 'Send Command',
  power: 'Send Power Action',
  backup: 'Create Backup',
};

/** The power payload picker, in the spec's order; `start` is the default. */
export const powerPayloadOptions: readonly PowerPayload[] = powerPayloads;

/** The Create schedule modal's values before the user types (spec §5 "Schedule defaults"). */
export const scheduleFormDefaults = {
  name: '',
  minute: '*/5',
  hour: '*',
  dayOfMonth: '*',
  month: '*',
  dayOfWeek: '*',
  enabled: true,
  onlyWhenOnline: true,
};

const cronField = () => z.string().trim().min(1, scheduleFormMessages.cronRequired);

/** The schedule modal; sent as `name`, `minute`, `hour`, `day_of_month`, `month`, `day_of_week`, `is_active`, `only_when_online`. */
export const scheduleFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: scheduleFormMessages.nameRequired, abort: true })
    .max(scheduleLimits.nameMax, scheduleFormMessages.nameMax),
  minute: cronField(),
  hour: cronField(),
  dayOfMonth: cronField(),
  month: cronField(),
  dayOfWeek: cronField(),
  enabled: z.boolean(),
  onlyWhenOnline: z.boolean(),
});

export type ScheduleFormValues = z.infer<typeof scheduleFormSchema>;

/**
 * The New/Edit Task modal's values before the user types (spec §5 "Task defaults"). When the action changes the
 * payload is cleared, and becomes `start` for a power action.
 */
export const taskFormDefaults = {
  action: 'command' as TaskAction,
  payload: '',
  timeOffset: '0',
  continueOnFailure: false,
};

/** The payload a task form takes when its action changes to `action`. */
export const payloadForAction = (action: TaskAction): string => (action === 'power' ? 'start' : '');

const m = taskFormMessages;

/** The offset as typed: a number from 0 to 900 (sent as `time_offset`). */
const timeOffset = () =>
  z
    .string()
    .trim()
    .min(1, { error: m.timeOffsetRequired, abort: true })
    .refine((value) => /^-?\d+(\.\d+)?$/.test(value), { error: m.timeOffsetInvalid, abort: true })
    .refine((value) => Number(value) >= scheduleLimits.timeOffsetMin, { error: m.timeOffsetMin, abort: true })
    .refine((value) => Number(value) <= scheduleLimits.timeOffsetMax, m.timeOffsetMax);

/** The task modal; sent as `action`, `payload`, `time_offset` (a number) and `continue_on_failure`. */
export const taskFormSchema = z
  .object({
    action: z.enum(taskActions),
    payload: z.string(),
    timeOffset: timeOffset(),
    continueOnFailure: z.boolean(),
  })
  .superRefine(
    (values, ctx) => {
      if (values.action !== 'backup' && (values.payload ?? '').trim() === '') {
        ctx.addIssue({ code: 'custom', path: ['payload'], message: m.payloadRequired });
      }
    },
    { when: () => true },
  );

export type TaskFormValues = z.infer<typeof taskFormSchema>;
