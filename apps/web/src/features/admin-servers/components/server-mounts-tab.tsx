import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  allMountsQueryOptions,
  attachMount,
  detachMount,
  type Mount,
  mountKeys,
} from '@/features/admin-mounts/api/mounts';
import type { AdminServer } from '@/features/admin-servers/api/admin-servers';
import { flashActions } from '@/stores/flash-store';

/** The server page's flashes (AdminPage's `flashKey`), where every tab shows its outcome. */
const flashKey = 'admin:server';

/**
 * The Mounts tab (Pterodactyl's admin "Mounts"): the mounts on the server's egg and node, each attached or not; a
 * change reaches the game at its next start.
 */
export function ServerMountsTab({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const mounts = useQuery(allMountsQueryOptions());
  const change = useMutation({
    mutationFn: ({ mount, attach }: { mount: Mount; attach: boolean }) =>
      attach ? attachMount(mount.id, 'servers', [server.id]) : detachMount(mount.id, 'servers', server.id),
    onMutate: () => flashActions().clearFlashes(flashKey),
    onError: (error) => flashActions().clearAndAddHttpError({ key: flashKey, error }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mountKeys.all }),
  });
  useEffect(() => {
    if (mounts.error) flashActions().clearAndAddHttpError({ key: flashKey, error: mounts.error });
  }, [mounts.error]);

  const usable = (mounts.data ?? []).filter(
    (mount) =>
      mount.eggs.some((egg) => egg.id === server.eggId) &&
      mount.nodes.some((node) => node.id === server.nodeId),
  );
  const columns: AdminColumn<Mount>[] = [
    {
      key: 'name',
      header: t('mounts.columns.name'),
      cell: (mount) => (
        <Link to={`/admin/mounts/${mount.id}`} className="font-medium text-brand-400 hover:underline">
          {mount.name}
        </Link>
      ),
    },
    {
      key: 'paths',
      header: t('servers.view.mounts.paths'),
      cell: (mount) => (
        <code className="font-mono text-xs">
          {mount.source} → {mount.target}
          {mount.readOnly ? ` (${t('mounts.read_only')})` : ''}
        </code>
      ),
    },
    {
      key: 'action',
      header: t('servers.view.mounts.state'),
      cell: (mount) => {
        const attached = mount.serverIds.includes(server.id);
        return (
          <Button
            size="sm"
            variant={attached ? 'secondary' : 'primary'}
            disabled={change.isPending}
            onClick={() => change.mutate({ mount, attach: !attached })}
            aria-label={t(
              attached ? 'servers.view.mounts.detach_named' : 'servers.view.mounts.attach_named',
              {
                name: mount.name,
              },
            )}
          >
            {attached ? t('servers.view.mounts.detach') : t('servers.view.mounts.attach')}
          </Button>
        );
      },
    },
  ];

  return (
    <ContentBox title={t('servers.view.mounts.title')}>
      <p className="mb-4 text-sm text-ink-300">{t('servers.view.mounts.hint')}</p>
      {mounts.data ? (
        <AdminTable
          caption={t('servers.view.mounts.title')}
          columns={columns}
          rows={usable}
          rowKey={(mount) => mount.id}
          empty={t('servers.view.mounts.empty')}
        />
      ) : (
        mounts.isPending && <SpinnerBlock />
      )}
    </ContentBox>
  );
}
