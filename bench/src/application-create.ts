import { performance } from 'node:perf_hooks';
import { percentile } from './measure';

export interface CreateResult {
  count: number;
  failures: string[];
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Ids of the servers created. */
  ids: number[];
}

/**
 * POSTs `count` bodies to `url` with `concurrency` requests in flight, each a 201 or a failure (status and body
 * kept, at most a few). Servers per second over the whole batch; p50/p99 of each request's latency.
 */
export async function createServers(
  url: string,
  headers: Record<string, string>,
  body: (index: number) => unknown,
  count: number,
  concurrency: number,
): Promise<CreateResult> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const ids: number[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body(index)) });
      const text = await response.text();
      latencies.push(performance.now() - started);
      if (response.status !== 201) failures.push(`${response.status} ${text.slice(0, 300)}`);
      else ids.push((JSON.parse(text) as { attributes: { id: number } }).attributes.id);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    count,
    failures,
    seconds,
    perSecond: count / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    ids,
  };
}
