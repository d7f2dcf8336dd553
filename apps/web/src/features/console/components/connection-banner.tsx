import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import type { ConnectionProblem } from '@/features/console/socket/console-socket';

/** The red bar above the server pages while the console socket has trouble (spec §4 "Websocket lifecycle"). */
export function ConnectionBanner({ problem }: { problem: ConnectionProblem }) {
  const { t } = useTranslation('server');
  if (!problem) return null;
  return (
    <div role="alert" className="animate-fade-in bg-red-600/90 py-2">
      <div className="mx-auto flex max-w-6xl items-center justify-center gap-2 px-4 text-sm text-red-50">
        {problem === 'connecting' ? (
          <>
            <Spinner size="small" />
            <p>{t('console.connection.trouble')}</p>
          </>
        ) : (
          <p className="text-white">{t('console.connection.credentials')}</p>
        )}
      </div>
    </div>
  );
}
