import { ClientEvent, DaemonEvent } from '@aerie/shared/console/socket-events';
import { parseServerStats } from '@aerie/shared/console/socket-stats';
import { useEffect, useState } from 'react';
import { useConsoleSocket, useSocketEvent } from '@/features/console/hooks/use-console-socket';
import type { LiveUsage } from '@/features/servers/components/server-info-card';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/** How many samples the charts keep. */
export const chartSamples = 20;

export interface StatSample {
  cpuPercent: number;
  memoryBytes: number;
  /** Bytes received and sent since the previous sample. */
  rxDelta: number;
  txDelta: number;
}

export interface LiveStats {
  latest: LiveUsage | null;
  /** Oldest first, at most `chartSamples`. */
  samples: StatSample[];
}

/**
 * The server's usage from the socket's `stats` events, and the last 20 samples for the charts. It asks for a
 * `stats` event whenever the socket (re)connects, so the figures show before the next periodic one (spec §2).
 */
export function useLiveStats(): LiveStats {
  const socket = useConsoleSocket();
  const connected = useServerStateStore((state) => state.connected);
  const [stats, setStats] = useState<LiveStats>({ latest: null, samples: [] });

  useSocketEvent(DaemonEvent.stats, (json) => {
    const wire = parseServerStats(json);
    if (!wire) return;
    const latest: LiveUsage = {
      uptimeMs: wire.uptime,
      cpuPercent: wire.cpu_absolute,
      memoryBytes: wire.memory_bytes,
      diskBytes: wire.disk_bytes,
      networkRxBytes: wire.network.rx_bytes,
      networkTxBytes: wire.network.tx_bytes,
    };
    setStats((previous) => {
      const before = previous.latest;
      // Counters restart with the process: a drop is a new start, not negative traffic.
      const delta = (now: number, then: number | undefined) =>
        then === undefined ? 0 : Math.max(0, now - then);
      const sample: StatSample = {
        cpuPercent: latest.cpuPercent,
        memoryBytes: latest.memoryBytes,
        rxDelta: delta(latest.networkRxBytes, before?.networkRxBytes),
        txDelta: delta(latest.networkTxBytes, before?.networkTxBytes),
      };
      return { latest, samples: [...previous.samples, sample].slice(-chartSamples) };
    });
  });

  useEffect(() => {
    if (connected) socket?.send(ClientEvent.sendStats);
  }, [socket, connected]);

  return stats;
}
