import { useTranslation } from 'react-i18next';
import { MessageBox } from '@/components/ui/message-box';
import { CommandInput } from '@/features/console/components/command-input';
import { ConsoleStatus } from '@/features/console/components/console-status';
import { ConsoleTerminal } from '@/features/console/components/console-terminal';
import { EulaModal } from '@/features/console/components/eula-modal';
import { JavaVersionModal } from '@/features/console/components/java-version-modal';
import { PowerButtons } from '@/features/console/components/power-buttons';
import { StatGraphs } from '@/features/console/components/stat-graphs';
import { useLiveStats } from '@/features/console/hooks/use-live-stats';
import { Can } from '@/features/servers/components/can';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';
import { ServerInfoCard } from '@/features/servers/components/server-info-card';
import { useServer } from '@/features/servers/hooks/use-server';

/**
 * The bare server page: the console, power controls, the server-info card with live usage, and the charts (hand-drawn
 * SVG, so they ride in this lazy chunk with xterm.js). Root admins reach it in a conflict state too, hence the notices.
 */
export function ConsoleRoute() {
  const { t } = useTranslation('server');
  const server = useServer();
  const stats = useLiveStats();
  const notice = server.isInstalling
    ? t('console.installing_notice')
    : server.isTransferring
      ? t('console.transferring_notice')
      : null;
  return (
    <ServerContentBlock title={t('title.console')} actions={<PowerButtons />}>
      {notice && (
        <MessageBox type="warning" className="mb-4">
          {notice}
        </MessageBox>
      )}
      <div className="grid gap-4 lg:grid-cols-4">
        <div className="min-w-0 lg:col-span-3">
          <div className="mb-2">
            <ConsoleStatus />
          </div>
          <ConsoleTerminal />
          <Can action="control.console">
            <CommandInput />
          </Can>
        </div>
        <ServerInfoCard usage={stats.latest} />
      </div>
      <StatGraphs samples={stats.samples} limits={server.limits} />
      {server.eggFeatures.includes('eula') && <EulaModal />}
      {server.eggFeatures.includes('java_version') && <JavaVersionModal />}
    </ServerContentBlock>
  );
}
