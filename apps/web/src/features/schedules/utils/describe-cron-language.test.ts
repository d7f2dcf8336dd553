import { afterEach, describe, expect, it } from 'vitest';
import { describeCron } from '@/features/schedules/utils/describe-cron';
import { prepareFormatLanguage } from '@/lib/format-language';

afterEach(() => prepareFormatLanguage('en'));

const everyFiveMinutes = { minute: '*/5', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' };

describe('describeCron in the page language', () => {
  it('says the schedule in English, then in German and Russian once the page is in them', async () => {
    expect(describeCron(everyFiveMinutes)).toBe('Every 5 minutes');
    await prepareFormatLanguage('de');
    expect(describeCron(everyFiveMinutes)).toBe('Alle 5 Minuten');
    await prepareFormatLanguage('ru');
    expect(describeCron(everyFiveMinutes)).toBe('Каждые 5 минут');
  });
});
