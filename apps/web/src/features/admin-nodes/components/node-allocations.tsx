import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { FormBox } from '@/components/ui/form-box';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import {
  type NodeAllocation,
  nodeAllocationsQueryOptions,
  useCreateAllocations,
  useDeleteAllocations,
} from '@/features/admin-nodes/api/allocations';
import {
  type AllocationFormValues,
  allocationFormSchema,
  toAllocationBody,
} from '@/features/admin-nodes/api/node-form';
import type { AdminNode } from '@/features/admin-nodes/api/nodes';
import { allocationsFlashKey } from '@/features/admin-nodes/components/admin-nodes-flash-keys';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';
import { errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

/** The allocations tab: the node's IPs and ports (a page at a time), adding more, deleting free ones in bulk. */
export function NodeAllocations({ node }: { node: AdminNode }) {
  const canWrite = useAdminCan('allocations.write');
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
      <div className="xl:col-span-2">
        <AllocationList node={node} />
      </div>
      {canWrite && <AddAllocations node={node} />}
    </div>
  );
}

const emptyForm: AllocationFormValues = { ip: '', alias: '', ports: '' };

function AddAllocations({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const create = useCreateAllocations(node.id);
  const { form, submit: handleSubmit } = useSaveForm({
    schema: allocationFormSchema,
    defaultValues: emptyForm,
    flashKey: allocationsFlashKey,
    apiFields: { ip: 'ip', alias: 'alias', ports: 'ports' },
    save: (values: AllocationFormValues) => create.mutateAsync(toAllocationBody(values)),
    onSaved: (_created, savedForm) => {
      savedForm.reset(emptyForm);
      flashActions().addFlash({
        key: allocationsFlashKey,
        type: 'success',
        message: t('nodes.allocations.added'),
      });
    },
  });

  return (
    <FormBox
      title={t('nodes.allocations.add_title')}
      form={form}
      onSubmit={handleSubmit}
      submitLabel={t('nodes.allocations.add')}
      isSaving={create.isPending}
      className="space-y-4"
    >
      <FormField<AllocationFormValues>
        name="ip"
        label={t('nodes.allocations.fields.ip')}
        description={t('nodes.allocations.hints.ip')}
      />
      <FormField<AllocationFormValues>
        name="alias"
        label={t('nodes.allocations.fields.alias')}
        description={t('nodes.allocations.hints.alias')}
      />
      <FormField<AllocationFormValues>
        name="ports"
        label={t('nodes.allocations.fields.ports')}
        description={t('nodes.allocations.hints.ports')}
      />
    </FormBox>
  );
}

function AllocationList({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const allocations = useQuery(nodeAllocationsQueryOptions(node.id, page));
  const remove = useDeleteAllocations(node.id);
  const canWrite = useAdminCan('allocations.write');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (allocations.error) {
      flashActions().clearAndAddHttpError({ key: allocationsFlashKey, error: allocations.error });
    }
  }, [allocations.error]);

  // A selection is of the page on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the page changes.
  useEffect(() => setSelected(new Set()), [page]);

  const rows = allocations.data?.items ?? [];
  const free = rows.filter((allocation) => !allocation.assigned);
  const allSelected = free.length > 0 && free.every((allocation) => selected.has(allocation.id));

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const handleDelete = async () => {
    const ids = [...selected];
    flashActions().clearFlashes(allocationsFlashKey);
    const failed = await remove.mutateAsync(ids);
    setConfirming(false);
    setSelected(new Set(failed.map((failure) => failure.id)));
    if (failed.length === 0) {
      flashActions().addFlash({
        key: allocationsFlashKey,
        type: 'success',
        message: t('nodes.allocations.deleted', { count: ids.length }),
      });
    } else {
      flashActions().addError({
        key: allocationsFlashKey,
        message: t('nodes.allocations.delete_failed', {
          count: failed.length,
          reason: errorToMessage(failed[0]?.error),
        }),
      });
    }
  };

  const address = (allocation: NodeAllocation) => `${allocation.ip}:${allocation.port}`;
  const selectColumn: AdminColumn<NodeAllocation> = {
    key: 'select',
    className: 'w-10',
    header: (
      <input
        type="checkbox"
        aria-label={t('nodes.allocations.select_all')}
        checked={allSelected}
        disabled={free.length === 0}
        onChange={() =>
          setSelected(allSelected ? new Set() : new Set(free.map((allocation) => allocation.id)))
        }
        className="size-4 accent-brand-500"
      />
    ),
    cell: (allocation) => (
      <input
        type="checkbox"
        aria-label={t('nodes.allocations.select', { address: address(allocation) })}
        checked={selected.has(allocation.id)}
        disabled={allocation.assigned}
        onChange={() => toggle(allocation.id)}
        className="size-4 accent-brand-500 disabled:opacity-30"
      />
    ),
  };
  const columns: AdminColumn<NodeAllocation>[] = [
    // Selecting is for deleting: without allocations.write there is nothing to select for.
    ...(canWrite ? [selectColumn] : []),
    { key: 'ip', header: t('nodes.allocations.columns.ip'), cell: (allocation) => allocation.ip },
    {
      key: 'alias',
      header: t('nodes.allocations.columns.alias'),
      cell: (allocation) => allocation.alias ?? <span className="text-ink-500">—</span>,
    },
    { key: 'port', header: t('nodes.allocations.columns.port'), cell: (allocation) => allocation.port },
    {
      key: 'server',
      header: t('nodes.allocations.columns.server'),
      cell: (allocation) =>
        allocation.server ? (
          <Link to={paths.adminServer(allocation.server.id)} className="text-brand-300 hover:text-brand-200">
            {allocation.server.name}
          </Link>
        ) : allocation.assigned ? (
          t('nodes.allocations.assigned')
        ) : (
          <span className="text-ink-500">{t('nodes.allocations.unassigned')}</span>
        ),
    },
  ];

  const data = allocations.data;
  return (
    <ContentBox title={t('nodes.allocations.title')}>
      <FlashMessageRender byKey={allocationsFlashKey} className="mb-4" />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <span className="text-xs text-ink-400">
          {data ? t('list.total', { count: data.total }) : t('list.loading')}
        </span>
        {canWrite && (
          <Button
            size="sm"
            variant="danger"
            disabled={selected.size === 0}
            onClick={() => setConfirming(true)}
          >
            {t('nodes.allocations.delete_selected', { count: selected.size })}
          </Button>
        )}
      </div>
      {!data ? (
        allocations.isPending && <SpinnerBlock />
      ) : (
        <>
          <AdminTable
            caption={t('nodes.allocations.title')}
            columns={columns}
            rows={rows}
            rowKey={(allocation) => allocation.id}
            empty={t('nodes.allocations.empty')}
          />
          <Pagination
            className="mt-4"
            currentPage={data.currentPage}
            totalPages={data.totalPages}
            onPageSelect={setPage}
          />
        </>
      )}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('nodes.allocations.delete_title')}
        confirmLabel={t('nodes.allocations.delete_confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleDelete()}
        isLoading={remove.isPending}
      >
        {t('nodes.allocations.delete_text', { count: selected.size })}
      </ConfirmationModal>
    </ContentBox>
  );
}
