import clsx from 'clsx';
import { useTranslation } from 'react-i18next';

const tone: Record<string, string> = {
  normal: 'bg-emerald-500/15 text-emerald-300',
  installing: 'bg-sky-500/15 text-sky-300',
  suspended: 'bg-amber-500/15 text-amber-300',
  install_failed: 'bg-red-500/15 text-red-300',
  reinstall_failed: 'bg-red-500/15 text-red-300',
  restoring_backup: 'bg-sky-500/15 text-sky-300',
};

/** A server's state as a small coloured label (null status = normal). */
export function ServerStatusBadge({ status }: { status: string | null }) {
  const { t } = useTranslation('admin');
  const key = (status ?? 'normal') as keyof typeof tone;
  return (
    <span className={clsx('rounded px-2 py-0.5 text-xs font-semibold', tone[key] ?? tone.normal)}>
      {t(`servers.status.${key}` as 'servers.status.normal', { defaultValue: key })}
    </span>
  );
}
