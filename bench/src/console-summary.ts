import type { FloodResult } from './console-flood';
import type { IdleResult } from './console-idle';
import type { LatencyResult } from './console-latency';
import { mib } from './measure';
import type { SummaryRow } from './summary';

type Runs = { flood: FloodResult; latency: LatencyResult };

const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')} lines/s`;
const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;

/** The flood's throughput and the latency's p99, each against the bare `ws` broadcaster of the same run. */
export function consoleSummary(
  daemon: Runs,
  baseline: Runs,
  run: { floodLines: number; clientCount: number; latencyRate: number },
): SummaryRow[] {
  return [
    {
      figure: `console flood, ${run.floodLines.toLocaleString('en-US')} lines to ${run.clientCount} clients`,
      value: perSecond(daemon.flood.totalLinesPerSecond),
      against: `bare ws ${perSecond(baseline.flood.totalLinesPerSecond)}`,
      ratio: daemon.flood.totalLinesPerSecond / baseline.flood.totalLinesPerSecond,
      goal: { atLeast: 0.9 },
    },
    {
      figure: `console latency p99 at ${run.latencyRate.toLocaleString('en-US')} lines/s`,
      value: ms(daemon.latency.p99Us),
      against: `bare ws ${ms(baseline.latency.p99Us)}`,
      ratio: daemon.latency.p99Us / baseline.latency.p99Us,
      goal: { atMost: 1.1 },
    },
  ];
}

export const idleSummary = (idle: IdleResult): SummaryRow => ({
  figure: 'daemon RSS with 0 servers',
  value: mib(idle.daemonEmptyRss),
  against: `bare node ${mib(idle.bareNodeRss)}`,
  ratio: idle.daemonEmptyRss / idle.bareNodeRss,
  goal: { atMost: 2 },
});
