import { type AdminPermission, canInAdmin } from '@aerie/shared/admin-roles/admin-permissions';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { adminServerQueryOptions } from '@/features/admin-servers/api/admin-servers';
import { ServerBuildTab } from '@/features/admin-servers/components/server-build-tab';
import { ServerDatabasesTab } from '@/features/admin-servers/components/server-databases-tab';
import { ServerDetailsTab } from '@/features/admin-servers/components/server-details-tab';
import { ServerManageTab } from '@/features/admin-servers/components/server-manage-tab';
import { ServerMountsTab } from '@/features/admin-servers/components/server-mounts-tab';
import { ServerStartupTab } from '@/features/admin-servers/components/server-startup-tab';
import { ServerStatusBadge } from '@/features/admin-servers/components/server-status-badge';
import { useAdminGrant } from '@/hooks/use-admin-can';
import { useTabFlashes } from '@/hooks/use-tab-flashes';

const tabs = ['details', 'build', 'startup', 'databases', 'mounts', 'manage'] as const;
type Tab = (typeof tabs)[number];

/** What a tab needs beyond reading the server: its databases and mounts are areas of their own, manage only acts. */
const tabPermissions: Partial<Record<Tab, AdminPermission>> = {
  databases: 'server_databases.read',
  mounts: 'mounts.read',
  manage: 'servers.write',
};

export const serverFlashKey = 'admin:server';

/**
 * A server in the admin area: tabs for details, build, startup, databases, mounts and manage
 * (`/admin/servers/view/{id}/{tab}`).
 */
export function ServerView() {
  const { t } = useTranslation('admin');
  const params = useParams();
  const id = Number(params.id);
  const grant = useAdminGrant();
  const shown = tabs.filter((name) => {
    const permission = tabPermissions[name];
    return permission === undefined || canInAdmin(grant, permission);
  });
  const tab: Tab = shown.includes(params.tab as Tab) ? (params.tab as Tab) : 'details';
  const { data: server } = useQuery(adminServerQueryOptions(id));
  useTabFlashes(serverFlashKey, tab);
  if (!server) return <SpinnerBlock />;
  return (
    <AdminPage
      title={server.name}
      description={server.uuid}
      flashKey={serverFlashKey}
      actions={
        <div className="flex items-center gap-3">
          <ServerStatusBadge status={server.status} />
          <Link to={paths.server(server.identifier)} className="text-sm text-brand-300 hover:underline">
            {t('servers.view.open_client')}
          </Link>
        </div>
      }
    >
      {/* Six tabs pass a phone's width: they wrap rather than widen the page. */}
      <nav aria-label={server.name} className="mb-6 flex flex-wrap gap-1 border-b border-ink-800">
        {shown.map((name) => (
          <NavLink
            key={name}
            to={`${paths.adminServer(server.id)}${name === 'details' ? '' : `/${name}`}`}
            end
            className={() =>
              clsx(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
                name === tab
                  ? 'border-brand-500 text-white'
                  : 'border-transparent text-ink-400 hover:text-ink-200',
              )
            }
            aria-current={name === tab ? 'page' : undefined}
          >
            {t(`servers.view.tabs.${name}`)}
          </NavLink>
        ))}
      </nav>
      {tab === 'details' && <ServerDetailsTab server={server} />}
      {tab === 'build' && <ServerBuildTab server={server} />}
      {tab === 'startup' && <ServerStartupTab server={server} />}
      {tab === 'databases' && <ServerDatabasesTab server={server} />}
      {tab === 'mounts' && <ServerMountsTab server={server} />}
      {tab === 'manage' && <ServerManageTab server={server} />}
    </AdminPage>
  );
}
