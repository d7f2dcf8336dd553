import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches, useParams } from 'react-router';
import type { ServerRouteHandle } from '@/app/routes/server/server-routes';
import { serverTabs } from '@/app/routes/server/server-routes';
import { ErrorPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { ConsoleSocketProvider } from '@/features/console/components/console-socket-provider';
import { serverQueryOptions } from '@/features/servers/api/servers';
import { ServerAreaGate } from '@/features/servers/components/server-area-gate';
import { ServerTabs } from '@/features/servers/components/server-tabs';
import { useClearServerOnLeave } from '@/features/servers/hooks/use-clear-server-on-leave';
import { ServerContext } from '@/features/servers/hooks/use-server';
import { errorToMessage } from '@/lib/api-client';
import { useUserStore } from '@/stores/user-store';

/**
 * /server/:id — loads the server, then shows its tabs and the page (or why the page cannot be shown). The console
 * socket lives here, so its events (install, transfer, power state) reach every page of the server.
 */
export function ServerLayout() {
  const { id = '' } = useParams();
  const { t } = useTranslation('server');
  const rootAdmin = useUserStore((state) => state.user?.rootAdmin ?? false);
  const server = useQuery(serverQueryOptions(id));
  const handle = useMatches().at(-1)?.handle as ServerRouteHandle | undefined;
  useClearServerOnLeave(id);

  if (server.error) {
    return <ErrorPage message={errorToMessage(server.error)} onRetry={() => void server.refetch()} />;
  }
  if (!server.data) return <SpinnerBlock />;
  return (
    <ServerContext.Provider value={server.data}>
      <ConsoleSocketProvider serverId={server.data.server.id}>
        <ServerTabs
          tabs={serverTabs.map((tab) => ({ ...tab, label: t(`nav.${tab.nav}`) }))}
          rootAdmin={rootAdmin}
        />
        <ServerAreaGate
          permission={handle?.permission}
          matchAny={handle?.matchAny === true}
          isConsole={handle?.console === true}
          flashKey={handle?.flashKey}
          rootAdmin={rootAdmin}
        >
          <Outlet />
        </ServerAreaGate>
      </ConsoleSocketProvider>
    </ServerContext.Provider>
  );
}
