import { canAll, canAny } from '@aerie/shared/permissions/can';
import { useTranslation } from 'react-i18next';
import { SubNavigation } from '@/components/layout/sub-navigation';
import { CogIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useServerContext } from '@/features/servers/hooks/use-server';

export interface ServerTab {
  /** Path under /server/{id}; '' is the console. */
  path: string;
  label: string;
  /** Permissions the tab needs; all of them unless `matchAny`. None = always shown. */
  permission?: readonly string[];
  matchAny?: boolean;
}

/** The server area's tab row: only the tabs the user may open, plus the admin view for root admins. */
export function ServerTabs({ tabs, rootAdmin }: { tabs: readonly ServerTab[]; rootAdmin: boolean }) {
  const { t } = useTranslation('server');
  const { server, permissions } = useServerContext();
  const visible = tabs.filter(
    ({ permission, matchAny }) =>
      !permission || (matchAny ? canAny(permissions, permission) : canAll(permissions, permission)),
  );
  return (
    <SubNavigation
      label={t('nav.label')}
      items={visible.map((tab) => ({
        to: tab.path ? paths.serverPage(server.id, tab.path) : paths.server(server.id),
        label: tab.label,
        end: tab.path === '',
      }))}
      extra={
        rootAdmin && (
          // The admin area is rendered by the panel: a full page load, in a new tab.
          <a
            href={paths.adminServer(server.internalId)}
            target="_blank"
            rel="noreferrer"
            aria-label={t('nav.admin')}
            title={t('nav.admin')}
            className="-mb-px ms-auto inline-flex items-center border-b-2 border-transparent px-3 py-3 text-ink-400 transition-colors hover:text-ink-100"
          >
            <CogIcon className="size-4" />
          </a>
        )
      }
    />
  );
}
