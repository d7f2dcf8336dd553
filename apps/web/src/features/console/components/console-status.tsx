import { useTranslation } from 'react-i18next';
import { useServer } from '@/features/servers/hooks/use-server';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

const tones = { offline: 'bg-red-500', running: 'bg-emerald-500' } as Record<string, string>;

/**
 * 'Connecting...' until the daemon reports a state, then Installing, Transferring, or the state (spec §4). A polite
 * status region, so a screen reader announces each change (Offline → Starting → Running).
 */
export function ConsoleStatus() {
  const { t } = useTranslation('server');
  const server = useServer();
  const status = useServerStateStore((state) => state.status);
  const text = !status
    ? t('console.status.connecting')
    : server.isInstalling
      ? t('console.status.installing')
      : server.isTransferring
        ? t('console.status.transferring')
        : status;
  return (
    <p
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label={t('console.status.label')}
      className="flex items-center gap-2 text-sm text-ink-300"
      data-testid="console-status"
    >
      <span
        aria-hidden="true"
        className={`size-2.5 rounded-full ${status ? (tones[status] ?? 'bg-amber-400') : 'bg-ink-600'}`}
      />
      <span className="capitalize">{text}</span>
    </p>
  );
}
