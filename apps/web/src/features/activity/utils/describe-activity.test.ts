import { activityDescriptions } from '@aerie/shared/activity/activity-descriptions';
import { activityEvents } from '@aerie/shared/activity/activity-events';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@/features/activity/api/activity';
import { activityEventKey, describeActivity } from '@/features/activity/utils/describe-activity';
import { createTestI18n } from '@/testing/test-i18n';

const i18n = createTestI18n();
const t = i18n.getFixedT('en', 'activity');
const english = (key: string) => i18n.getResource('en', 'activity', key);

const entry = (event: string, properties: Record<string, unknown> = {}): ActivityEntry => ({
  id: 'x',
  event,
  isApi: false,
  ip: null,
  description: null,
  properties,
  hasAdditionalMetadata: false,
  timestamp: new Date(),
  actor: null,
});

/** Laravel's `:name` placeholders as i18next's `{{name}}`. */
const asI18n = (text: string) => text.replace(/:([\w.-]+\w)/g, '{{$1}}');

describe('activity descriptions', () => {
  it.each(activityEvents)('has the English text of %s, word for word', (event) => {
    const source = activityDescriptions[event];
    const key = activityEventKey(event);
    if (typeof source === 'string') {
      expect(english(key)).toBe(asI18n(source));
    } else {
      expect(english(`${key}_one`)).toBe(asI18n(source.one));
      expect(english(`${key}_other`)).toBe(asI18n(source.other));
    }
  });

  it('fills in properties, nested ones too, and picks the form by count', () => {
    expect(
      describeActivity(
        t,
        entry('server:allocation.notes', { allocation: '10.0.0.1:25565', old: '', new: 'Voice' }),
      ),
    ).toBe('Updated the notes for 10.0.0.1:25565 from "" to "Voice"');
    expect(
      describeActivity(
        t,
        entry('server:file.chmod', { directory: '/', files: [{ file: 'start.sh', mode: '755' }], count: 1 }),
      ),
    ).toBe('Changed the mode of /start.sh to 755');
    expect(
      describeActivity(
        t,
        entry('server:file.compress', { directory: '/world/', files: ['a', 'b'], count: 2 }),
      ),
    ).toBe('Compressed 2 files in /world/');
    expect(describeActivity(t, entry('server:backup.restore', { name: 'Nightly', truncate: true }))).toBe(
      'Restored the Nightly backup (deleted files: true)',
    );
  });

  it('treats properties as text only, even when named like an i18next option', () => {
    expect(
      describeActivity(
        t,
        entry('server:console.command', {
          command: '{{lng}} $t(auth.success)',
          lng: 'de',
          context: 'x',
        }),
      ),
    ).toBe('Executed "{{lng}} $t(auth.success)" on the server');
  });

  it('falls back to the panel’s description, then to the event name', () => {
    expect(describeActivity(t, { ...entry('server:new.thing'), description: 'A new thing' })).toBe(
      'A new thing',
    );
    expect(describeActivity(t, entry('server:new.thing'))).toBe('server:new.thing');
  });
});
