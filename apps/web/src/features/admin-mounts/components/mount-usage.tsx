import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import {
  attachMount,
  detachMount,
  type Mount,
  type MountRelation,
  mountKeys,
  mountNodeNamesQueryOptions,
} from '@/features/admin-mounts/api/mounts';
import { eggOptions, getEggChoices } from '@/features/admin-servers/api/admin-servers';
import { flashActions } from '@/stores/flash-store';

/**
 * Where a mount may be used: the eggs and the nodes it is attached to. A server uses a mount only while it is on
 * both the server's egg and its node.
 */
export function MountUsage({ mount, flashKey }: { mount: Mount; flashKey: string }) {
  const eggs = useQuery({
    queryKey: [...mountKeys.all, 'egg-choices'],
    queryFn: ({ signal }) => getEggChoices(signal),
  });
  const nodes = useQuery(mountNodeNamesQueryOptions());
  const eggLabels = new Map(eggOptions(eggs.data).map((option) => [Number(option.value), option.label]));
  return (
    <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2">
      <UsageBox
        mount={mount}
        relation="eggs"
        flashKey={flashKey}
        attached={mount.eggs.map((egg) => ({ id: egg.id, name: eggLabels.get(egg.id) ?? egg.name }))}
        choices={[...eggLabels].map(([id, name]) => ({ id, name }))}
      />
      <UsageBox
        mount={mount}
        relation="nodes"
        flashKey={flashKey}
        attached={mount.nodes}
        choices={nodes.data ?? []}
      />
    </div>
  );
}

interface UsageBoxProps {
  mount: Mount;
  relation: Exclude<MountRelation, 'servers'>;
  flashKey: string;
  attached: { id: number; name: string }[];
  choices: { id: number; name: string }[];
}

function UsageBox({ mount, relation, flashKey, attached, choices }: UsageBoxProps) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState('');
  const change = useMutation({
    mutationFn: ({ id, attach }: { id: number; attach: boolean }) =>
      attach ? attachMount(mount.id, relation, [id]) : detachMount(mount.id, relation, id),
    onMutate: () => flashActions().clearFlashes(flashKey),
    onError: (error) => flashActions().clearAndAddHttpError({ key: flashKey, error }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mountKeys.detail(mount.id) }),
  });
  const free = choices.filter((choice) => !attached.some((entry) => entry.id === choice.id));
  const title = t(`mounts.usage.${relation}`);
  return (
    <ContentBox title={title}>
      <p className="mb-4 text-sm text-ink-300">{t(`mounts.usage.${relation}_hint`)}</p>
      {attached.length === 0 ? (
        <p className="mb-4 text-sm text-ink-400">{t('mounts.usage.none')}</p>
      ) : (
        <ul className="mb-4 divide-y divide-ink-700" aria-label={title}>
          {attached.map((entry) => (
            <li key={entry.id} className="flex items-center justify-between gap-3 py-2">
              <span className="text-ink-100">{entry.name}</span>
              <Button
                size="sm"
                variant="secondary"
                disabled={change.isPending}
                onClick={() => change.mutate({ id: entry.id, attach: false })}
                aria-label={t('mounts.usage.remove', { name: entry.name })}
              >
                {t('mounts.usage.remove_short')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {free.length > 0 && (
        <div className="flex items-end gap-3">
          <div className="flex-1">
            <SelectField
              label={t(`mounts.usage.add_${relation}`)}
              placeholder={t('mounts.usage.choose')}
              options={free.map((choice) => ({ value: String(choice.id), label: choice.name }))}
              value={picked}
              onChange={(event) => setPicked(event.currentTarget.value)}
            />
          </div>
          <Button
            disabled={!picked || change.isPending}
            onClick={() =>
              change.mutate({ id: Number(picked), attach: true }, { onSuccess: () => setPicked('') })
            }
          >
            {t('mounts.usage.add')}
          </Button>
        </div>
      )}
    </ContentBox>
  );
}
