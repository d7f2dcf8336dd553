import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { normalizeInput } from '../validation/normalize-input';
import { toValidationErrors } from '../validation/validation-errors';
import { castBoolean, scheduleBodySchema, taskBodySchema } from './schedules-bodies';

/** [field, rule, detail] of each 422 entry, in the order the API lists them, or the parsed body. */
function check(schema: z.ZodObject, body: unknown) {
  const result = schema.safeParse(normalizeInput(body));
  if (result.success) return result.data;
  return toValidationErrors(result.error.issues, Object.keys(schema.shape)).map((item) => [
    item.meta?.source_field,
    item.meta?.rule,
    item.detail,
  ]);
}

const cron = { minute: '*/5', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };

describe('schedule bodies (reference §7.2, §10 CreateServerScheduleTest)', () => {
  it('lists the five required fields of an empty body in upstream order, month left unchecked', () => {
    expect(check(scheduleBodySchema, {})).toEqual([
      ['name', 'required', 'The name field is required.'],
      ['minute', 'required', 'The minute field is required.'],
      ['hour', 'required', 'The hour field is required.'],
      ['day_of_month', 'required', 'The day of month field is required.'],
      ['day_of_week', 'required', 'The day of week field is required.'],
    ]);
  });

  it('reads is_active as filled|boolean: "no" fails boolean, "" fails filled, 1 and "0" are booleans', () => {
    expect(check(scheduleBodySchema, { name: 'a', ...cron, is_active: 'no' })).toEqual([
      ['is_active', 'boolean', 'The is active field must be true or false.'],
    ]);
    expect(check(scheduleBodySchema, { name: 'a', ...cron, is_active: '' })).toEqual([
      ['is_active', 'filled', 'The is active field is required.'],
    ]);
    expect(check(scheduleBodySchema, { name: 'a', ...cron, is_active: 1 })).toMatchObject({
      is_active: true,
    });
    expect(check(scheduleBodySchema, { name: 'a', ...cron, is_active: '0' })).toMatchObject({
      is_active: false,
    });
    expect(check(scheduleBodySchema, { name: 'a', ...cron })).not.toHaveProperty('is_active');
  });

  it('caps the name at 191 characters and wants strings for the cron fields', () => {
    expect(check(scheduleBodySchema, { ...cron, name: 'n'.repeat(192), minute: 5 })).toEqual([
      ['name', 'max', 'The name may not be greater than 191 characters.'],
      ['minute', 'string', 'The minute must be a string.'],
    ]);
  });

  it('casts only_when_online as PHP does (and "false" as false)', () => {
    expect([true, 1, '1', 'yes', 'on'].map(castBoolean)).toEqual([true, true, true, true, true]);
    expect([false, 0, '0', '', null, undefined, [], 'false'].map(castBoolean)).toEqual(Array(8).fill(false));
  });
});

describe('task bodies (reference §7.2, §10 CreateServerScheduleTaskTest)', () => {
  it('lists action, payload and time_offset for an empty body', () => {
    expect(check(taskBodySchema, {})).toEqual([
      ['action', 'required', 'The action field is required.'],
      ['payload', 'required_unless', 'The payload field is required unless action is in backup.'],
      ['time_offset', 'required', 'The time offset field is required.'],
    ]);
  });

  it('refuses an unknown action, a non-numeric sequence and offsets outside 0–900', () => {
    expect(
      check(taskBodySchema, { action: 'hodor', payload: 'x', time_offset: 901, sequence_id: 'hodor' }),
    ).toEqual([
      ['action', 'in', 'The selected action is invalid.'],
      ['time_offset', 'max', 'The time offset may not be greater than 900.'],
      ['sequence_id', 'numeric', 'The sequence id must be a number.'],
    ]);
    expect(
      check(taskBodySchema, { action: 'command', payload: 'x', time_offset: -1, sequence_id: 0 }),
    ).toEqual([
      ['time_offset', 'min', 'The time offset must be at least 0.'],
      ['sequence_id', 'min', 'The sequence id must be at least 1.'],
    ]);
    expect(check(taskBodySchema, { action: 'command', payload: 'x', time_offset: 'soon' })).toEqual([
      ['time_offset', 'numeric', 'The time offset must be a number.'],
    ]);
  });

  it('needs a payload unless the action is backup, and a string one', () => {
    expect(check(taskBodySchema, { action: 'backup', time_offset: 0 })).toEqual({
      action: 'backup',
      time_offset: 0,
    });
    expect(check(taskBodySchema, { action: 'power', payload: 5, time_offset: 0 })).toEqual([
      ['payload', 'string', 'The payload must be a string.'],
    ]);
  });

  it('takes sequence_id and continue_on_failure only when sent, null failing required', () => {
    expect(
      check(taskBodySchema, {
        action: 'command',
        payload: 'say hi',
        time_offset: '10',
        sequence_id: '2',
        continue_on_failure: '1',
      }),
    ).toEqual({
      action: 'command',
      payload: 'say hi',
      time_offset: 10,
      sequence_id: 2,
      continue_on_failure: true,
    });
    expect(
      check(taskBodySchema, {
        action: 'command',
        payload: 'x',
        time_offset: 0,
        sequence_id: null,
        continue_on_failure: 'yes',
      }),
    ).toEqual([
      ['sequence_id', 'required', 'The sequence id field is required.'],
      ['continue_on_failure', 'boolean', 'The continue on failure field must be true or false.'],
    ]);
  });
});
