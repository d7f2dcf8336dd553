import type { BenchClient } from './console-clients';
import { percentile } from './measure';

export interface LatencyResult {
  printed: number;
  received: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

/** Lines each client skips before counting: the first ones pay for waking the relay's idle paths. */
const WARM_UP_LINES = 100;

/** The game prints `lines` lines at `rate` per second; each client's game-to-socket latencies are pooled. */
export async function measureLatency(
  clients: BenchClient[],
  lines: number,
  rate: number,
): Promise<LatencyResult> {
  for (const client of clients) client.reset(lines);
  const timeoutMs = (lines / rate) * 1000 + 30_000;
  const done = clients.map((client) => client.waitForLine('tick done', timeoutMs));
  clients[0]?.send('send command', [`tick ${lines} ${rate}`]);
  await Promise.allSettled(done);
  const pooled = clients.flatMap((client) => client.record.latenciesUs.slice(WARM_UP_LINES));
  pooled.sort((a, b) => a - b);
  return {
    printed: lines * clients.length,
    received: clients.reduce((sum, client) => sum + client.record.received, 0),
    p50Us: percentile(pooled, 0.5),
    p99Us: percentile(pooled, 0.99),
    maxUs: pooled.at(-1) ?? Number.NaN,
  };
}
