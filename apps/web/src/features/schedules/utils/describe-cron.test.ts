import { scheduleFormDefaults } from '@aerie/shared/schedules/schedules-forms';
import { describe, expect, it } from 'vitest';
import { describeCron } from '@/features/schedules/utils/describe-cron';

const cron = (fields: Partial<Parameters<typeof describeCron>[0]> = {}) => ({
  minute: scheduleFormDefaults.minute,
  hour: scheduleFormDefaults.hour,
  dayOfMonth: scheduleFormDefaults.dayOfMonth,
  month: scheduleFormDefaults.month,
  dayOfWeek: scheduleFormDefaults.dayOfWeek,
  ...fields,
});

describe('describeCron', () => {
  it('words the defaults and other expressions', () => {
    expect(describeCron(cron())).toBe('Every 5 minutes');
    expect(describeCron(cron({ minute: '0', hour: '4', dayOfWeek: 'sun' }))).toBe(
      'At 04:00 AM, only on Sunday',
    );
    expect(describeCron(cron({ minute: ' 15 ', hour: '*/2' }))).toBe(
      'At 15 minutes past the hour, every 2 hours',
    );
  });

  it('says nothing for an empty field, a field with a space, or one out of range', () => {
    expect(describeCron(cron({ hour: '' }))).toBeNull();
    expect(describeCron(cron({ minute: '1 2' }))).toBeNull();
    expect(describeCron(cron({ month: '13' }))).toBeNull();
    expect(describeCron(cron({ minute: 'soon' }))).toBeNull();
  });
});
