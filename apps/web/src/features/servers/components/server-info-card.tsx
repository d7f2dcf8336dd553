import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { allocationAddress } from '@/features/servers/api/transformers';
import { useServer } from '@/features/servers/hooks/use-server';
import { formatBytes, megabytesToBytes } from '@/utils/format-bytes';

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-ink-400">{label}</dt>
      <dd className="truncate font-mono text-ink-100">{value}</dd>
    </div>
  );
}

/** The basics of the open server: where it listens, on which node, and its limits. */
export function ServerInfoCard() {
  const { t } = useTranslation('server');
  const server = useServer();
  const primary = server.allocations.find((allocation) => allocation.isDefault);
  const size = (megabytes: number) =>
    megabytes > 0 ? formatBytes(megabytesToBytes(megabytes)) : t('info.unlimited');
  return (
    <ContentBox title={t('info.title')}>
      {server.description && <p className="mb-3 text-sm text-ink-300">{server.description}</p>}
      <dl className="divide-y divide-ink-800 text-sm">
        <Row label={t('info.address')} value={primary ? allocationAddress(primary) : t('info.no_address')} />
        <Row label={t('info.node')} value={server.node} />
        <Row
          label={t('info.cpu')}
          value={server.limits.cpu > 0 ? `${server.limits.cpu} %` : t('info.unlimited')}
        />
        <Row label={t('info.memory')} value={size(server.limits.memory)} />
        <Row label={t('info.disk')} value={size(server.limits.disk)} />
      </dl>
    </ContentBox>
  );
}
