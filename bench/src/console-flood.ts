import type { BenchClient } from './console-clients';
import { rssBytes, sampleRss, settledRss } from './console-rss';
import { median } from './measure';

export interface FloodResult {
  printed: number;
  /** How long the game took to print them (its pipe's backpressure included). */
  gameMs: number;
  rssBefore: number;
  rssPeak: number;
  /** Three seconds after the last client saw `flood done`. */
  rssAfter: number;
  perClient: { received: number; linesPerSecond: number; throttleNotices: number }[];
  totalReceived: number;
  totalLinesPerSecond: number;
  /** Lines no client got: the throttle dropped them (or every socket's queue at once). */
  missingEverywhere: number;
  /** Lines some clients got and others did not: slow-socket queue drops, summed over clients. */
  missingSomewhere: number;
  clientsDone: number;
}

const seconds = (ns: bigint) => Number(ns) / 1e9;

/** Has the game print `lines` lines flat out while `clients` listen; `pid` is the relay whose RSS is read. */
export async function measureFlood(pid: number, clients: BenchClient[], lines: number): Promise<FloodResult> {
  for (const client of clients) client.reset(lines);
  const rssBefore = await settledRss(pid, 3, 300);
  const sampler = sampleRss(pid);
  const done = clients.map((client) => client.waitForLine('flood done', 240_000));
  clients[0]?.send('send command', [`flood ${lines}`]);
  const outcomes = await Promise.allSettled(done);
  const rssPeak = sampler.stop();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const rssAfter = Math.min(rssBytes(pid), await settledRss(pid, 3, 300));

  const doneLine = outcomes.find((o) => o.status === 'fulfilled')?.value ?? '';
  const records = clients.map((client) => client.record);
  const perClient = records.map((r) => ({
    received: r.received,
    linesPerSecond: r.received > 1 ? r.received / seconds(r.lastNs - r.firstNs) : 0,
    throttleNotices: r.throttleNotices,
  }));
  const totalReceived = perClient.reduce((sum, c) => sum + c.received, 0);
  const active = records.filter((r) => r.received > 0);
  const first = active.reduce((min, r) => (r.firstNs < min ? r.firstNs : min), active[0]?.firstNs ?? 0n);
  const last = active.reduce((max, r) => (r.lastNs > max ? r.lastNs : max), 0n);
  let missingEverywhere = 0;
  for (let index = 0; index < lines; index += 1) {
    if (records.every((r) => r.seen[index] === 0)) missingEverywhere += 1;
  }
  const missingSomewhere = records.reduce((sum, r) => sum + (lines - r.received - missingEverywhere), 0);
  return {
    printed: lines,
    gameMs: Number(doneLine.split(' ')[3] ?? Number.NaN),
    rssBefore,
    rssPeak,
    rssAfter,
    perClient,
    totalReceived,
    totalLinesPerSecond: totalReceived / seconds(last - first),
    missingEverywhere,
    missingSomewhere,
    clientsDone: outcomes.filter((o) => o.status === 'fulfilled').length,
  };
}

export const medianClientRate = (result: FloodResult) =>
  median(result.perClient.map((c) => c.linesPerSecond));
