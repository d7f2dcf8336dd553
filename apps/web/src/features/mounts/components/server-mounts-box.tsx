import { canAll } from '@aerie/shared/permissions/can';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import {
  type ServerMount,
  serverMountsQueryOptions,
  useToggleServerMount,
} from '@/features/mounts/api/server-mounts';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/**
 * The Startup page's mounts: folders the host shares, seen by the game at their target from its next start. Only
 * when the user may read them and there is at least one; users attach and detach those users may attach. A refused
 * change shows under `flashKey`, the page's.
 */
export function ServerMountsBox({ flashKey }: { flashKey: string }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const permissions = useServerPermissions();
  const canRead = canAll(permissions, ['mount.read']);
  const canUpdate = canAll(permissions, ['mount.update']);
  const mounts = useQuery({ ...serverMountsQueryOptions(server.id), enabled: canRead });
  const toggle = useToggleServerMount(server.id);
  if (!canRead || !mounts.data || mounts.data.length === 0) return null;

  const change = (mount: ServerMount) => {
    flashActions().clearFlashes(flashKey);
    toggle.mutate(
      { uuid: mount.uuid, attach: !mount.attached },
      { onError: (error) => flashActions().clearAndAddHttpError({ key: flashKey, error }) },
    );
  };

  return (
    <>
      <h2 className="mt-8 mb-4 text-xl font-semibold text-ink-50">{t('mounts.title')}</h2>
      <ContentBox>
        <p className="mb-4 text-sm text-ink-300">{t('mounts.hint')}</p>
        <ul className="divide-y divide-ink-700" aria-label={t('mounts.title')}>
          {mounts.data.map((mount) => (
            <li key={mount.uuid} className="flex flex-wrap items-center gap-4 py-3" aria-label={mount.name}>
              <div className="min-w-0 flex-1">
                <p className="font-medium text-ink-50">{mount.name}</p>
                <p className="break-all font-mono text-xs text-ink-300">
                  {mount.target}
                  {mount.read_only ? ` · ${t('mounts.read_only')}` : ''}
                </p>
                {mount.description && <p className="mt-1 text-sm text-ink-300">{mount.description}</p>}
              </div>
              {mount.user_mountable ? (
                canUpdate && (
                  <Button
                    size="sm"
                    variant={mount.attached ? 'secondary' : 'primary'}
                    isLoading={toggle.isPending && toggle.variables?.uuid === mount.uuid}
                    disabled={toggle.isPending}
                    onClick={() => change(mount)}
                  >
                    {mount.attached ? t('mounts.detach') : t('mounts.attach')}
                  </Button>
                )
              ) : (
                <span className="text-sm text-ink-300">{t('mounts.by_admin')}</span>
              )}
            </li>
          ))}
        </ul>
      </ContentBox>
    </>
  );
}
