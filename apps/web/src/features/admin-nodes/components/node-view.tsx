import { canInAdmin } from '@aerie/shared/admin-roles/admin-permissions';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { MessageBox } from '@/components/ui/message-box';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { nodeQueryOptions } from '@/features/admin-nodes/api/nodes';
import { nodeFlashKey } from '@/features/admin-nodes/components/admin-nodes-flash-keys';
import { NodeAllocations } from '@/features/admin-nodes/components/node-allocations';
import { NodeConfiguration } from '@/features/admin-nodes/components/node-configuration';
import { NodeHealthBadge } from '@/features/admin-nodes/components/node-health';
import { NodeSettings } from '@/features/admin-nodes/components/node-settings';
import { overviewQueryOptions } from '@/features/admin-overview/api/overview';
import { useAdminGrant } from '@/hooks/use-admin-can';
import { useTabFlashes } from '@/hooks/use-tab-flashes';
import { errorToMessage } from '@/lib/api-client';

/** The node page's tabs: the settings at the bare address, the others as `/<tab>`. */
export const nodeTabs = ['', 'configuration', 'allocations'] as const;
export type NodeTab = (typeof nodeTabs)[number];

const tabLabels = { '': 'settings', configuration: 'configuration', allocations: 'allocations' } as const;

/** /admin/nodes/view/:id/:tab? — a node's settings, its daemon configuration and its allocations. */
export function NodeView({ id, tab }: { id: number; tab: NodeTab }) {
  const { t } = useTranslation('admin');
  const node = useQuery(nodeQueryOptions(id));
  const overview = useQuery(overviewQueryOptions());
  const grant = useAdminGrant();
  useTabFlashes(nodeFlashKey, tab);
  // The configuration carries the daemon's token, so the panel asks read and write of nodes for it.
  const shown = nodeTabs.filter(
    (name) =>
      (name !== 'configuration' || canInAdmin(grant, 'nodes.write')) &&
      (name !== 'allocations' || canInAdmin(grant, 'allocations.read')),
  );

  if (node.error) {
    return (
      <AdminPage title={t('nodes.title')}>
        <MessageBox type="error" title={t('nodes.error')}>
          {errorToMessage(node.error)}
        </MessageBox>
      </AdminPage>
    );
  }
  if (!node.data) return <SpinnerBlock />;
  const data = node.data;
  return (
    <AdminPage
      title={data.name}
      description={`${data.scheme}://${data.fqdn}:${data.daemonListen}`}
      flashKey={nodeFlashKey}
      actions={
        <div className="flex items-center gap-4">
          <NodeHealthBadge health={overview.data?.nodes.find((health) => health.id === id)} />
          <Link to={paths.adminSection('nodes')} className="text-sm text-ink-300 hover:text-white">
            {t('actions.back')}
          </Link>
        </div>
      }
    >
      <nav aria-label={t('nodes.tabs.label')} className="mb-6 flex gap-1 border-b border-ink-800">
        {shown.map((name) => (
          <NavLink
            key={name}
            end
            to={name ? `/admin/nodes/view/${id}/${name}` : `/admin/nodes/view/${id}`}
            className={({ isActive }) =>
              clsx(
                '-mb-px border-b-2 px-4 py-2 text-sm font-medium transition-colors',
                isActive
                  ? 'border-brand-500 text-white'
                  : 'border-transparent text-ink-400 hover:text-ink-100',
              )
            }
          >
            {t(`nodes.tabs.${tabLabels[name]}`)}
          </NavLink>
        ))}
      </nav>
      {(tab === '' || !shown.includes(tab)) && <NodeSettings node={data} />}
      {tab === 'configuration' && shown.includes(tab) && <NodeConfiguration node={data} />}
      {tab === 'allocations' && shown.includes(tab) && <NodeAllocations node={data} />}
    </AdminPage>
  );
}
