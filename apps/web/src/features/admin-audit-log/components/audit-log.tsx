import { type AuditSubjectType, auditSubjectTypes } from '@aerie/shared/audit/audit-actions';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminPage } from '@/components/admin/admin-page';
import { SelectField } from '@/components/admin/select-field';
import { Field } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { type AuditFilters, auditLogQueryOptions } from '@/features/admin-audit-log/api/audit-log';
import { AuditEntryRow } from '@/features/admin-audit-log/components/audit-entry-row';
import { subjectLabel } from '@/features/admin-audit-log/components/audit-labels';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:audit';

/** How long the text filters wait after the last key press before they ask the panel. */
export const auditFilterDelayMs = 300;

const noFilters: AuditFilters = { action: '', actorName: '', subjectType: '' };

/** /admin/audit: every change made in the admin area or with the Application API, newest first. */
export function AuditLog() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const action = useDebouncedValue(filters.action, auditFilterDelayMs).trim();
  const actorName = useDebouncedValue(filters.actorName, auditFilterDelayMs).trim();
  const log = useQuery(
    auditLogQueryOptions({ page, filters: { action, actorName, subjectType: filters.subjectType } }),
  );
  const filtered = action !== '' || actorName !== '' || filters.subjectType !== '';

  useEffect(() => {
    if (log.error) flashActions().clearAndAddHttpError({ key: flashKey, error: log.error });
  }, [log.error]);

  const change = (next: Partial<AuditFilters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage(1);
  };

  const columns = [
    t('audit.columns.time'),
    t('audit.columns.actor'),
    t('audit.columns.action'),
    t('audit.columns.subject'),
    t('audit.columns.ip'),
  ];
  const data = log.data;
  return (
    <AdminPage title={t('audit.title')} description={t('audit.description')} flashKey={flashKey}>
      <search aria-label={t('audit.filters')} className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Field
          type="search"
          label={t('audit.filter_action')}
          placeholder={t('audit.filter_action_placeholder')}
          value={filters.action}
          onChange={(event) => change({ action: event.target.value })}
          spellCheck={false}
        />
        <Field
          type="search"
          label={t('audit.filter_actor')}
          placeholder={t('audit.filter_actor_placeholder')}
          value={filters.actorName}
          onChange={(event) => change({ actorName: event.target.value })}
          spellCheck={false}
        />
        <SelectField
          label={t('audit.filter_subject')}
          value={filters.subjectType}
          onChange={(event) => change({ subjectType: event.target.value as AuditSubjectType | '' })}
          options={[
            { value: '', label: t('audit.any_subject') },
            ...auditSubjectTypes.map((type) => ({ value: type, label: subjectLabel(t, type) })),
          ]}
        />
      </search>
      {!data ? (
        log.isPending && <SpinnerBlock />
      ) : data.items.length === 0 ? (
        <p role="status" className="py-8 text-center text-sm text-ink-400">
          {filtered ? t('audit.no_match') : t('audit.empty')}
        </p>
      ) : (
        <>
          <div className="relative overflow-x-auto rounded-xl border border-ink-800 bg-ink-900/70">
            <table className="w-full text-start text-sm">
              <caption className="sr-only">{t('audit.title')}</caption>
              <thead className="border-b border-ink-800 text-xs uppercase tracking-wider text-ink-400">
                <tr>
                  {columns.map((header) => (
                    <th key={header} scope="col" className="px-4 py-3 text-start font-semibold">
                      {header}
                    </th>
                  ))}
                  <th scope="col" className="px-4 py-3 text-end font-semibold">
                    <span className="sr-only">{t('audit.columns.details')}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-800">
                {data.items.map((entry) => (
                  <AuditEntryRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('list.total', { count: data.total })}</span>
            <Pagination currentPage={data.currentPage} totalPages={data.totalPages} onPageSelect={setPage} />
          </div>
        </>
      )}
    </AdminPage>
  );
}
