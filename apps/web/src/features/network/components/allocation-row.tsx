import { networkLimits } from '@aerie/shared/network/network-bodies';
import { canAll } from '@aerie/shared/permissions/can';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { useAllocationNotes, useSetPrimaryAllocation } from '@/features/network/api/allocations';
import { DeleteAllocationButton } from '@/features/network/components/delete-allocation-button';
import { networkFlashKey } from '@/features/network/components/network-flash-keys';
import { type Allocation, allocationAddress } from '@/features/servers/api/transformers';
import { Can } from '@/features/servers/components/can';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { flashActions } from '@/stores/flash-store';

const fail = (error: unknown) => flashActions().clearAndAddHttpError({ key: networkFlashKey, error });

/**
 * One allocation: where it listens, its notes (saved 750 ms after typing stops, spec §5) and either the Primary
 * badge or the controls the user's permissions allow.
 */
export function AllocationRow({ allocation }: { allocation: Allocation }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const canUpdate = canAll(useServerPermissions(), ['allocation.update']);
  const notes = useAllocationNotes(server.id);
  const makePrimary = useSetPrimaryAllocation(server.id);
  const address = allocationAddress(allocation);
  const host = allocation.alias || allocation.ip;

  const saveNotes = useDebouncedCallback((value: string) => {
    flashActions().clearFlashes(networkFlashKey);
    notes.mutate({ id: allocation.id, notes: value }, { onError: fail });
  }, networkLimits.notesDebounceMs);

  const handleMakePrimary = () => {
    flashActions().clearFlashes(networkFlashKey);
    makePrimary.mutate(allocation.id, { onError: fail });
  };

  return (
    <li
      aria-label={address}
      className="flex flex-wrap items-center gap-4 rounded-xl border border-ink-800 bg-ink-900/70 px-5 py-4 md:flex-nowrap"
    >
      <div className="flex w-full items-center gap-6 md:w-auto">
        <div className="min-w-0 flex-1 md:w-44 md:flex-none">
          <CopyOnClick text={host} className="font-mono text-sm text-ink-100">
            {host}
          </CopyOnClick>
          <p className="mt-1 text-xs uppercase tracking-wider text-ink-400">
            {allocation.alias ? t('network.hostname') : t('network.ip_address')}
          </p>
        </div>
        <div className="w-20">
          <p className="font-mono text-sm text-ink-100">{allocation.port}</p>
          <p className="mt-1 text-xs uppercase tracking-wider text-ink-400">{t('network.port')}</p>
        </div>
      </div>
      <div className="relative w-full md:flex-1">
        <Textarea
          aria-label={t('network.notes_label', { address })}
          placeholder={t('network.notes')}
          defaultValue={allocation.notes ?? ''}
          maxLength={networkLimits.notesMax}
          readOnly={!canUpdate}
          rows={1}
          className="min-h-11"
          onChange={(event) => {
            if (canUpdate) saveNotes(event.currentTarget.value);
          }}
        />
        {notes.isPending && (
          <span className="absolute top-3 inset-e-3 text-brand-400">
            <Spinner size="small" label={t('network.saving')} />
          </span>
        )}
      </div>
      <div className="flex w-full items-center justify-end gap-3 md:w-48">
        {allocation.isDefault ? (
          <span className="rounded-md bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
            {t('network.primary')}
          </span>
        ) : (
          <>
            <Can action="allocation.delete">
              <DeleteAllocationButton allocation={allocation} />
            </Can>
            <Can action="allocation.update">
              <Button variant="secondary" size="sm" onClick={handleMakePrimary}>
                {t('network.make_primary')}
              </Button>
            </Can>
          </>
        )}
      </div>
    </li>
  );
}
