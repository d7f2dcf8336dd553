import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import {
  type AdminServer,
  adminServerKeys,
  cancelAdminServerTransfer,
  choiceQueries,
  freeAllocationsKey,
  transferAdminServer,
} from '@/features/admin-servers/api/admin-servers';
import { flashActions } from '@/stores/flash-store';

/** The server page's flashes (AdminPage's `flashKey`), where every tab shows its outcome. */
const flashKey = 'admin:server';

/**
 * Moves the server to another node (Pterodactyl's "Transfer Server"): the target node, its primary allocation and
 * any additional ones; while a transfer runs, where it goes and a cancel; after a failure, why.
 */
export function ServerTransferBox({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const nodes = useQuery(choiceQueries.nodes()).data ?? [];
  const [nodeId, setNodeId] = useState('');
  const [allocationId, setAllocationId] = useState('');
  const [additionalIds, setAdditionalIds] = useState<number[]>([]);
  const allocations = useQuery(choiceQueries.freeAllocations(Number(nodeId) || 0)).data;
  const settle = async () => {
    await queryClient.invalidateQueries({ queryKey: adminServerKeys.all });
    await queryClient.invalidateQueries({ queryKey: freeAllocationsKey });
  };
  const start = useMutation({
    mutationFn: () =>
      transferAdminServer(server.id, {
        nodeId: Number(nodeId),
        allocationId: Number(allocationId),
        additionalIds,
      }),
    onMutate: () => flashActions().clearFlashes(flashKey),
    onSuccess: () => {
      flashActions().addFlash({
        key: flashKey,
        type: 'success',
        message: t('servers.view.transfer.started'),
      });
      setNodeId('');
      setAllocationId('');
      setAdditionalIds([]);
    },
    onError: (error) => flashActions().clearAndAddHttpError({ key: flashKey, error }),
    onSettled: settle,
  });
  const cancel = useMutation({
    mutationFn: () => cancelAdminServerTransfer(server.id),
    onMutate: () => flashActions().clearFlashes(flashKey),
    onSuccess: () =>
      flashActions().addFlash({
        key: flashKey,
        type: 'success',
        message: t('servers.view.transfer.cancelled'),
      }),
    onError: (error) => flashActions().clearAndAddHttpError({ key: flashKey, error }),
    onSettled: settle,
  });

  const transfer = server.transfer;
  const nodeName = (id: number) => nodes.find((node) => node.id === id)?.name ?? `#${id}`;
  if (transfer?.successful === null) {
    return (
      <ContentBox title={t('servers.view.transfer.title')}>
        <p className="mb-4 text-sm text-ink-300" role="status">
          {t('servers.view.transfer.running', { node: nodeName(transfer.newNode) })}
        </p>
        <Button variant="danger" isLoading={cancel.isPending} onClick={() => cancel.mutate()}>
          {t('servers.view.transfer.cancel')}
        </Button>
      </ContentBox>
    );
  }

  const others = nodes.filter((node) => node.id !== server.nodeId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nodeId && allocationId) start.mutate();
  };
  return (
    <ContentBox title={t('servers.view.transfer.title')}>
      <p className="mb-4 text-sm text-ink-300">{t('servers.view.transfer.text')}</p>
      {transfer?.successful === false && (
        <p className="mb-4 text-sm text-amber-300">
          {transfer.failure
            ? t('servers.view.transfer.failed', { reason: transfer.failure })
            : t('servers.view.transfer.failed_no_reason')}
        </p>
      )}
      {others.length === 0 ? (
        <p className="text-sm text-ink-300">{t('servers.view.transfer.no_nodes')}</p>
      ) : (
        <form className="grid gap-4" onSubmit={submit}>
          <SelectField
            label={t('servers.view.transfer.node')}
            value={nodeId}
            placeholder="—"
            options={others.map((node) => ({ value: String(node.id), label: node.name }))}
            onChange={(event) => {
              setNodeId(event.target.value);
              setAllocationId('');
              setAdditionalIds([]);
            }}
          />
          {nodeId && allocations?.length === 0 && (
            <p className="text-sm text-amber-300">{t('servers.view.transfer.no_allocations')}</p>
          )}
          {nodeId && (allocations?.length ?? 0) > 0 && (
            <SelectField
              label={t('servers.view.transfer.allocation')}
              value={allocationId}
              placeholder="—"
              options={(allocations ?? []).map((allocation) => ({
                value: String(allocation.id),
                label: `${allocation.alias ?? allocation.ip}:${allocation.port}`,
              }))}
              onChange={(event) => {
                setAllocationId(event.target.value);
                setAdditionalIds((ids) => ids.filter((id) => String(id) !== event.target.value));
              }}
            />
          )}
          {allocationId && (allocations?.length ?? 0) > 1 && (
            <fieldset>
              <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wider text-ink-300">
                {t('servers.view.transfer.additional')}
              </legend>
              <div className="flex flex-wrap gap-3">
                {(allocations ?? [])
                  .filter((allocation) => String(allocation.id) !== allocationId)
                  .map((allocation) => (
                    <label
                      key={allocation.id}
                      className="inline-flex items-center gap-2 text-sm text-ink-200"
                    >
                      <input
                        type="checkbox"
                        checked={additionalIds.includes(allocation.id)}
                        onChange={(event) =>
                          setAdditionalIds((ids) =>
                            event.target.checked
                              ? [...ids, allocation.id]
                              : ids.filter((id) => id !== allocation.id),
                          )
                        }
                      />
                      {allocation.ip}:{allocation.port}
                    </label>
                  ))}
              </div>
            </fieldset>
          )}
          <div>
            <Button type="submit" disabled={!nodeId || !allocationId} isLoading={start.isPending}>
              {t('servers.view.transfer.submit')}
            </Button>
          </div>
        </form>
      )}
    </ContentBox>
  );
}
