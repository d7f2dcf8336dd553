import { canInAdmin } from '@aerie/shared/admin-roles/admin-permissions';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import type { AuditEntry } from '@/features/admin-audit-log/api/audit-log';
import { AuditChanges } from '@/features/admin-audit-log/components/audit-changes';
import { actionLabel, subjectLabel } from '@/features/admin-audit-log/components/audit-labels';
import { subjectLink } from '@/features/admin-audit-log/utils/subject-link';
import { useAdminGrant } from '@/hooks/use-admin-can';
import { formatDate, formatFullDate } from '@/lib/format-dates';

const dateFormat = 'MMM do, yyyy HH:mm:ss';

/** The number of columns of the log's table, which the details row spans. */
const auditColumnCount = 6;

/** One entry: when, who, what and on which object, from where; its changed fields unfold under it. */
export function AuditEntryRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const grant = useAdminGrant();
  const detailsId = useId();
  const [expanded, setExpanded] = useState(false);
  const link = subjectLink(entry, (permission) => canInAdmin(grant, permission));
  const subject = entry.subjectId
    ? t('audit.subject_id', { type: subjectLabel(t, entry.subjectType), id: entry.subjectId })
    : subjectLabel(t, entry.subjectType);

  return (
    <>
      <tr className="hover:bg-ink-800/40">
        <td className="whitespace-nowrap px-4 py-3 text-ink-300">
          <time dateTime={entry.createdAt.toISOString()} title={formatFullDate(entry.createdAt)}>
            {formatDate(entry.createdAt, dateFormat)}
          </time>
        </td>
        <td className="px-4 py-3">
          <span className="font-medium text-ink-100">{entry.actorName}</span>
          {entry.actorId === null && (
            <span className="ms-1 text-xs text-ink-500">({t('audit.actor_deleted')})</span>
          )}
          {entry.apiKey && (
            <span className="block font-mono text-xs text-ink-400">
              {t('audit.api_key', { identifier: entry.apiKey })}
            </span>
          )}
        </td>
        <td className="px-4 py-3">
          <span className="text-ink-100">{actionLabel(t, entry.action)}</span>
          <code className="block text-xs text-ink-500">{entry.action}</code>
        </td>
        <td className="px-4 py-3">
          {link ? (
            <Link to={link} className="text-brand-300 hover:text-brand-200">
              {subject}
            </Link>
          ) : (
            subject
          )}
        </td>
        <td className="px-4 py-3 font-mono text-xs text-ink-300">{entry.ip}</td>
        <td className="px-4 py-3 text-end">
          <Button
            size="sm"
            variant="secondary"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            onClick={() => setExpanded((open) => !open)}
          >
            {expanded ? t('audit.hide_changes') : t('audit.show_changes')}
          </Button>
        </td>
      </tr>
      {expanded && (
        <tr id={detailsId} className="bg-ink-950/40">
          <td colSpan={auditColumnCount} className="px-4 py-3">
            <AuditChanges entry={entry} />
          </td>
        </tr>
      )}
    </>
  );
}
