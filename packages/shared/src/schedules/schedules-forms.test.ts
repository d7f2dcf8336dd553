import { describe, expect, it } from 'vitest';
import {
  payloadForAction,
  scheduleFormDefaults,
  scheduleFormSchema,
  taskActionLabels,
  taskFormDefaults,
  taskFormSchema,
} from './schedules-forms';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) =>
  result.success ? [] : (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);

describe('schedule forms (spec §5)', () => {
  it('starts from the spec defaults: every 5 minutes, enabled, only when online', () => {
    expect(scheduleFormDefaults).toEqual({
      name: '',
      minute: '*/5',
      hour: '*',
      dayOfMonth: '*',
      month: '*',
      dayOfWeek: '*',
      enabled: true,
      onlyWhenOnline: true,
    });
    expect(messagesOf(scheduleFormSchema.safeParse(scheduleFormDefaults))).toEqual([
      ['name', 'The name field is required.'],
    ]);
    expect(scheduleFormSchema.safeParse({ ...scheduleFormDefaults, name: 'Restart' }).success).toBe(true);
  });

  it('starts a task as a command at offset 0 that stops the chain on failure', () => {
    expect(taskFormDefaults).toEqual({
      action: 'command',
      payload: '',
      timeOffset: '0',
      continueOnFailure: false,
    });
    expect(taskActionLabels).toEqual({
      command: 'Send Command',
      power: 'Send Power Action',
      backup: 'Create Backup',
    });
    expect([payloadForAction('power'), payloadForAction('command'), payloadForAction('backup')]).toEqual([
      'start',
      '',
      '',
    ]);
  });

  it.each([
    ['', 'A time offset value must be provided.'],
    ['soon', 'The time offset must be a valid number between 0 and 900.'],
    ['-1', 'The time offset must be at least 0 seconds.'],
    ['901', 'The time offset must be less than 900 seconds.'],
  ])('words a time offset of %j as the spec does', (timeOffset, message) => {
    const result = taskFormSchema.safeParse({ ...taskFormDefaults, payload: 'say hi', timeOffset });
    expect(messagesOf(result)).toEqual([['timeOffset', message]]);
  });

  it('needs a payload unless the task makes a backup', () => {
    expect(messagesOf(taskFormSchema.safeParse(taskFormDefaults))).toEqual([
      ['payload', 'A task payload must be provided.'],
    ]);
    expect(taskFormSchema.safeParse({ ...taskFormDefaults, action: 'backup' }).success).toBe(true);
    expect(
      taskFormSchema.safeParse({ ...taskFormDefaults, payload: 'say hi', timeOffset: '900' }).success,
    ).toBe(true);
  });
});
