import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** Drives one URL with autocannon: 32 connections for `seconds` (10 by default). */
export async function load(
  url: string,
  headers: Record<string, string> = {},
  seconds = 10,
): Promise<LoadResult> {
  const result = await autocannon({ url, connections: 32, duration: seconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
