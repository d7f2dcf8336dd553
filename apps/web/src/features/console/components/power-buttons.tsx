import { ClientEvent, type PowerAction } from '@aerie/shared/console/socket-events';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useConsoleSocket } from '@/features/console/hooks/use-console-socket';
import { Can } from '@/features/servers/components/can';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/**
 * Start / Restart / Stop (spec §4 "Power buttons"): Start only when offline, Restart once a state is known, Stop
 * unless offline or unknown; while stopping, Stop becomes Kill. Each needs its control permission. A button that
 * does not apply stays focusable (aria-disabled, presses ignored): pressing Start disables it, and focus stays put.
 */
export function PowerButtons() {
  const { t } = useTranslation('server');
  const socket = useConsoleSocket();
  const status = useServerStateStore((state) => state.status);
  const killable = status === 'stopping';
  const power = (action: PowerAction) => socket?.send(ClientEvent.setState, action);

  return (
    <Can action={['control.start', 'control.stop', 'control.restart']} matchAny>
      <fieldset className="flex gap-2" aria-label={t('console.power.label')}>
        <Can action="control.start">
          <Button
            variant="primary"
            size="sm"
            focusableWhenDisabled
            disabled={status !== 'offline'}
            onClick={() => power('start')}
          >
            {t('console.power.start')}
          </Button>
        </Can>
        <Can action="control.restart">
          <Button
            variant="secondary"
            size="sm"
            focusableWhenDisabled
            disabled={!status}
            onClick={() => power('restart')}
          >
            {t('console.power.restart')}
          </Button>
        </Can>
        <Can action="control.stop">
          <Button
            variant="danger"
            size="sm"
            focusableWhenDisabled
            disabled={!status || status === 'offline'}
            onClick={() => power(killable ? 'kill' : 'stop')}
          >
            {killable ? t('console.power.kill') : t('console.power.stop')}
          </Button>
        </Can>
      </fieldset>
    </Can>
  );
}
