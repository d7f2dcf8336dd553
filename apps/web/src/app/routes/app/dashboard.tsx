import { useTranslation } from 'react-i18next';
import { PageContentBlock } from '@/components/ui/page-content-block';
import { ServerList } from '@/features/servers/components/server-list';
import { ShowAllServersToggle } from '@/features/servers/components/show-all-servers-toggle';
import { useShowAllServers } from '@/features/servers/hooks/use-show-all-servers';
import { usePageParam } from '@/hooks/use-page-param';
import { useUserStore } from '@/stores/user-store';

export function DashboardRoute() {
  const { t } = useTranslation('dashboard');
  const rootAdmin = useUserStore((state) => state.user?.rootAdmin ?? false);
  const [showAll, setShowAll] = useShowAllServers();
  const [page, setPage] = usePageParam();
  const handleToggle = (next: boolean) => {
    setShowAll(next);
    setPage(1);
  };
  return (
    <PageContentBlock
      title={t('title')}
      showFlashKey="dashboard"
      actions={rootAdmin && <ShowAllServersToggle showAll={showAll} onChange={handleToggle} />}
    >
      {/* Only root admins can list others' servers; a stored choice of a former admin is ignored. */}
      <ServerList showAll={rootAdmin && showAll} page={page} setPage={setPage} />
    </PageContentBlock>
  );
}
