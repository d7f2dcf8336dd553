import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { SpinnerBlock } from '@/components/ui/spinner';
import { allocationsQueryOptions, useCreateAllocation } from '@/features/network/api/allocations';
import { AllocationRow } from '@/features/network/components/allocation-row';
import { networkFlashKey } from '@/features/network/components/network-flash-keys';
import { Can } from '@/features/servers/components/can';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/**
 * The Network page's content: the server's allocations and, for users who may add one, how many of the allowed
 * allocations are in use with Create Allocation while some are left.
 */
export function NetworkPage() {
  const { t } = useTranslation('server');
  const server = useServer();
  const queryClient = useQueryClient();
  const list = useQuery(allocationsQueryOptions(server.id, queryClient));
  const create = useCreateAllocation(server.id);
  const limit = server.featureLimits.allocations;

  useEffect(() => {
    if (list.error) flashActions().clearAndAddHttpError({ key: networkFlashKey, error: list.error });
  }, [list.error]);

  if (!list.data) return list.isError ? null : <SpinnerBlock />;

  const handleCreate = () => {
    flashActions().clearFlashes(networkFlashKey);
    create.mutate(undefined, {
      onError: (error) => flashActions().clearAndAddHttpError({ key: networkFlashKey, error }),
    });
  };

  const count = list.data.length;
  return (
    <>
      <ul aria-label={t('network.list_label')} className="space-y-2">
        {list.data.map((allocation) => (
          <AllocationRow key={allocation.id} allocation={allocation} />
        ))}
      </ul>
      {limit > 0 && (
        <Can action="allocation.create">
          <div className="mt-6 flex flex-col items-stretch gap-4 sm:flex-row sm:items-center sm:justify-end">
            <p className="text-sm text-ink-300">{t('network.usage', { n: count, limit })}</p>
            {limit > count && (
              <Button onClick={handleCreate} isLoading={create.isPending}>
                {t('network.create')}
              </Button>
            )}
          </div>
        </Can>
      )}
    </>
  );
}
