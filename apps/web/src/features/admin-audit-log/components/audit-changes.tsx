import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@/features/admin-audit-log/api/audit-log';
import { changedFields, formatAuditValue } from '@/features/admin-audit-log/utils/changed-fields';

function Value({ value }: { value: unknown }) {
  const { t } = useTranslation('admin');
  const text = formatAuditValue(value);
  if (text === null) return <span className="text-ink-500">{t('audit.absent')}</span>;
  return (
    // JSON reads left to right whatever the page's direction.
    <pre dir="ltr" className="whitespace-pre-wrap break-all text-start font-mono text-xs text-ink-100">
      {text}
    </pre>
  );
}

/** The fields an entry changed, each with its value before and after. */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const changes = changedFields(entry.before, entry.after);
  if (changes.length === 0) return <p className="text-sm text-ink-400">{t('audit.no_changes')}</p>;
  return (
    <table className="w-full table-fixed text-sm">
      <caption className="sr-only">{t('audit.changes_of', { id: entry.id })}</caption>
      <thead className="text-xs uppercase tracking-wider text-ink-400">
        <tr>
          <th scope="col" className="w-1/5 px-3 py-2 text-start font-semibold">
            {t('audit.field')}
          </th>
          <th scope="col" className="px-3 py-2 text-start font-semibold">
            {t('audit.before')}
          </th>
          <th scope="col" className="px-3 py-2 text-start font-semibold">
            {t('audit.after')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-ink-800">
        {changes.map((change) => (
          <tr key={change.field}>
            <th
              scope="row"
              className="px-3 py-2 text-start align-top font-mono text-xs font-medium text-ink-200"
            >
              {change.field}
            </th>
            <td className="px-3 py-2 align-top">
              <Value value={change.before} />
            </td>
            <td className="px-3 py-2 align-top">
              <Value value={change.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
