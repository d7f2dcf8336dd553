import { describe, expect, it } from 'vitest';
import { type CronFields, nextRunAt } from './cron-expression';

const cron = (minute: string, hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*'): CronFields => ({
  minute,
  hour,
  dayOfMonth,
  month,
  dayOfWeek,
});

const from = new Date('2024-05-07T12:55:57Z');
const next = (fields: CronFields, timezone = 'UTC') => nextRunAt(fields, from, timezone).toISOString();

describe('nextRunAt', () => {
  it.each([
    [cron('*/5'), '2024-05-07T13:00:00.000Z'],
    [cron('5'), '2024-05-07T13:05:00.000Z'],
    [cron('0', '4'), '2024-05-08T04:00:00.000Z'],
    [cron('0', '0', '*', '*', 'sun'), '2024-05-12T00:00:00.000Z'],
    [cron('0', '0', '*', '*', '7'), '2024-05-12T00:00:00.000Z'],
    [cron('30', '6', 'L'), '2024-05-31T06:30:00.000Z'],
    [cron('0', '0', '?', 'jan', '1#2'), '2025-01-13T00:00:00.000Z'],
    [cron('1,2,3', '13-14'), '2024-05-07T13:01:00.000Z'],
  ])('runs %o next at %s', (fields, expected) => {
    expect(next(fields)).toBe(expected);
  });

  it('reads the fields in the panel’s time zone', () => {
    // 04:00 in Berlin is 02:00 UTC in summer time.
    expect(next(cron('0', '4'), 'Europe/Berlin')).toBe('2024-05-08T02:00:00.000Z');
  });

  it('is strictly after the given time', () => {
    expect(nextRunAt(cron('*'), new Date('2024-05-07T13:00:00Z'), 'UTC').toISOString()).toBe(
      '2024-05-07T13:01:00.000Z',
    );
  });

  it.each([
    ['a minute out of range', cron('61')],
    ['a step of 0', cron('*/0')],
    ['a backwards range', cron('5-1')],
    ['an empty list item', cron('1,,2')],
    ['free text', cron('every five minutes')],
    ['a space that would shift the fields', cron('1 2')],
    ['an empty field', cron('')],
    ['a day that never comes', cron('0', '0', '31', '2')],
    ['a hashed value', cron('H')],
    ['an unknown name', cron('0', '0', '*', 'foo')],
  ])('refuses %s with upstream’s 400', (_name, fields) => {
    expect(() => nextRunAt(fields, from, 'UTC')).toThrow(
      expect.objectContaining({
        statusCode: 400,
        code: 'DisplayException',
        detail: 'The cron data provided does not evaluate to a valid expression.',
      }),
    );
  });
});
