import { REDACTED } from '@aerie/shared/audit/audit-wire';

/** One field of an entry that differs between before and after; `undefined` where the side lacks it. */
export interface ChangedField {
  field: string;
  before: unknown;
  after: unknown;
}

type Snapshot = Record<string, unknown> | null;

/** Key order does not make two objects different: `{a, b}` and `{b, a}` are the same value. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * The fields whose value changed, in the order the entry lists them (before's fields, then those only after has).
 * A creation lists every field of after, a deletion every field of before.
 */
export function changedFields(before: Snapshot, after: Snapshot): ChangedField[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }))
    .filter((change) => !same(change.before, change.after));
}

/** A value as JSON (strings quoted, objects indented); the redaction marker as it is; undefined as null. */
export function formatAuditValue(value: unknown): string | null {
  if (value === undefined) return null;
  if (value === REDACTED) return REDACTED;
  return JSON.stringify(value, null, 2);
}
