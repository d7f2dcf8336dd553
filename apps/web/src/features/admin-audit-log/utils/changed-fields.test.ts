import { describe, expect, it } from 'vitest';
import { changedFields, formatAuditValue } from '@/features/admin-audit-log/utils/changed-fields';

describe('changedFields', () => {
  it('keeps only the fields whose value changed, whatever the order of nested keys', () => {
    expect(
      changedFields(
        { name: 'a', limits: { memory: 1, disk: 2 }, ports: [1, 2], gone: true },
        { name: 'a', limits: { disk: 2, memory: 1 }, ports: [2, 1], added: 'x' },
      ),
    ).toEqual([
      { field: 'ports', before: [1, 2], after: [2, 1] },
      { field: 'gone', before: true, after: undefined },
      { field: 'added', before: undefined, after: 'x' },
    ]);
  });

  it('lists every field of a creation or a deletion', () => {
    expect(changedFields(null, { id: 1 })).toEqual([{ field: 'id', before: undefined, after: 1 }]);
    expect(changedFields({ id: 1 }, null)).toEqual([{ field: 'id', before: 1, after: undefined }]);
    expect(changedFields(null, null)).toEqual([]);
  });
});

describe('formatAuditValue', () => {
  it('writes JSON, leaves the redaction marker as it is and nothing for a missing side', () => {
    expect(formatAuditValue('x')).toBe('"x"');
    expect(formatAuditValue(null)).toBe('null');
    expect(formatAuditValue({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatAuditValue('[redacted]')).toBe('[redacted]');
    expect(formatAuditValue(undefined)).toBeNull();
  });
});
