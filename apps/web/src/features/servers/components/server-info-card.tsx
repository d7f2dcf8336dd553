import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { allocationAddress } from '@/features/servers/api/transformers';
import { useServer } from '@/features/servers/hooks/use-server';
import { formatBytes, megabytesToBytes } from '@/utils/format-bytes';
import { formatUptime } from '@/utils/format-duration';
import { formatPercent } from '@/utils/format-percent';

/** The figures of the last `stats` event of the console socket. */
export interface LiveUsage {
  /** ms since the process started; 0 when offline. */
  uptimeMs: number;
  cpuPercent: number;
  memoryBytes: number;
  diskBytes: number;
  networkRxBytes: number;
  networkTxBytes: number;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-ink-400">{label}</dt>
      <dd className="truncate text-end font-mono text-ink-100">{children}</dd>
    </div>
  );
}

/** A live figure with its limit after it: '12.5 % / 150 %'; the limit alone until figures arrive. */
function OfLimit({ value, limit }: { value?: string; limit: string }) {
  return (
    <>
      {value !== undefined && (
        <>
          <span>{value}</span>
          <span className="text-ink-500"> / </span>
        </>
      )}
      <span className={value !== undefined ? 'text-ink-400' : undefined}>{limit}</span>
    </>
  );
}

/**
 * The basics of the open server: where it listens, on which node, its limits and, on the console page, its live
 * usage (uptime, CPU, memory, disk and network) from the console socket.
 */
export function ServerInfoCard({ usage }: { usage?: LiveUsage | null }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const primary = server.allocations.find((allocation) => allocation.isDefault);
  const size = (megabytes: number) =>
    megabytes > 0 ? formatBytes(megabytesToBytes(megabytes)) : t('info.unlimited');
  return (
    <ContentBox title={t('info.title')}>
      {server.description && <p className="mb-3 text-sm text-ink-300">{server.description}</p>}
      <dl className="divide-y divide-ink-800 text-sm">
        <Row label={t('info.address')}>{primary ? allocationAddress(primary) : t('info.no_address')}</Row>
        <Row label={t('info.node')}>{server.node}</Row>
        {usage && (
          <Row label={t('info.uptime')}>
            {usage.uptimeMs > 0 ? formatUptime(usage.uptimeMs) : t('info.offline')}
          </Row>
        )}
        <Row label={t('info.cpu')}>
          <OfLimit
            value={usage ? formatPercent(usage.cpuPercent) : undefined}
            limit={server.limits.cpu > 0 ? `${server.limits.cpu} %` : t('info.unlimited')}
          />
        </Row>
        <Row label={t('info.memory')}>
          <OfLimit
            value={usage ? formatBytes(usage.memoryBytes) : undefined}
            limit={size(server.limits.memory)}
          />
        </Row>
        <Row label={t('info.disk')}>
          <OfLimit
            value={usage ? formatBytes(usage.diskBytes) : undefined}
            limit={size(server.limits.disk)}
          />
        </Row>
        {usage && (
          <>
            <Row label={t('info.inbound')}>{formatBytes(usage.networkRxBytes)}</Row>
            <Row label={t('info.outbound')}>{formatBytes(usage.networkTxBytes)}</Row>
          </>
        )}
      </dl>
    </ContentBox>
  );
}
