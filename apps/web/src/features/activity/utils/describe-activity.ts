import type { TFunction } from 'i18next';
import type { ActivityEntry } from '@/features/activity/api/activity';

/**
 * The translation key of an event: `server:file.rename` → `server.file.rename` at the top of the `activity`
 * namespace (the colon would otherwise read as a namespace separator), where Pterodactyl's own client looks too.
 */
export const activityEventKey = (event: string) => event.replace(':', '.');

/**
 * The readable description of an entry in the reader's language, its properties filled in (`{{old}}`,
 * `{{files.0.from}}`), the `one`/`other` form chosen by the `count` property. The properties go in as `replace`
 * values, never as options, so a property named like an i18next option (`lng`, `context`…) is only ever text.
 * An event this app has no text for reads as the panel's description, else as its name.
 */
export function describeActivity(t: TFunction<'activity'>, entry: ActivityEntry): string {
  const count = entry.properties.count;
  return t(activityEventKey(entry.event) as 'auth.success', {
    replace: entry.properties,
    count: typeof count === 'number' ? count : undefined,
    defaultValue: entry.description || entry.event,
  });
}
