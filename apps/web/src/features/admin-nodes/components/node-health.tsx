import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import type { NodeHealth } from '@/features/admin-overview/api/overview';

/** Online / Offline from the overview's live check; "Checking…" until it answered. */
export function NodeHealthBadge({ health }: { health: NodeHealth | undefined }) {
  const { t } = useTranslation('admin');
  if (!health) return <span className="text-xs text-ink-500">{t('nodes.health.checking')}</span>;
  return (
    <span
      title={health.version ? t('overview.daemon', { version: health.version }) : undefined}
      className={clsx(
        'rounded px-2 py-0.5 text-xs font-semibold',
        health.online ? 'bg-emerald-500/20 text-emerald-300' : 'bg-red-500/20 text-red-300',
      )}
    >
      {health.online ? t('overview.online') : t('overview.offline')}
    </span>
  );
}
