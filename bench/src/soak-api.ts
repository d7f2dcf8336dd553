import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { percentile } from './measure';
import type { SoakServer } from './soak-panel';

export interface ApiMixResult {
  offered: number;
  /** 2xx answers (a read-back with the wrong content is an error, not one of these). */
  ok: number;
  /** 503 answers: admission control's refusals. */
  refused: number;
  /** Anything else: other statuses, time-outs (15 s, as the client), network failures. */
  errors: number;
  /** A few of the errors, for the report. */
  errorSamples: string[];
  okP50Ms: number;
  okP99Ms: number;
  refusedP99Ms: number;
  /**
   * The generator's own event-loop delay (p99): a request answered meanwhile is timed late by up to this much, so a
   * latency near it says more about the generator than about the panel.
   */
  loopDelayP99Ms: number;
}

/** What one request of the mix asks, for the server it goes to, in that server's `cycle` through the mix. */
type Call = (
  server: SoakServer,
  cycle: number,
) => { method: string; path: string; body?: string; expect?: string };

/** Eight files a server: a file always holds the same text, so a read-back has one right answer, whatever the order. */
const file = (cycle: number) => `%2Fsoak-${cycle % 8}.txt`;
const fileText = (server: SoakServer, cycle: number) => `soak ${server.identifier} ${cycle % 8}\n`;

/** What each call of MIX is, for the per-route table. */
export const MIX_NAMES = ['server list', 'server', 'resources', 'file list', 'file write', 'file read-back'];

/**
 * The mix, one after the other per server: the server list, the server, its resources, its file list, a
 * file written and the same file read back.
 */
const MIX: Call[] = [
  () => ({ method: 'GET', path: '/api/client' }),
  (server) => ({ method: 'GET', path: `/api/client/servers/${server.identifier}` }),
  (server) => ({ method: 'GET', path: `/api/client/servers/${server.identifier}/resources` }),
  (server) => ({ method: 'GET', path: `/api/client/servers/${server.identifier}/files/list?directory=%2F` }),
  (server, cycle) => ({
    method: 'POST',
    path: `/api/client/servers/${server.identifier}/files/write?file=${file(cycle)}`,
    body: fileText(server, cycle),
  }),
  (server, cycle) => ({
    method: 'GET',
    path: `/api/client/servers/${server.identifier}/files/contents?file=${file(cycle)}`,
    expect: fileText(server, cycle),
  }),
];

/**
 * Sends the mix at `rate` requests a second for `seconds`, open loop: each request leaves on schedule whether the
 * ones before it were answered or not, as many independent users would. Requests are spread over the servers.
 */
export async function runApiMix(options: {
  url: string;
  headers: Record<string, string>;
  servers: readonly SoakServer[];
  rate: number;
  seconds: number;
}): Promise<ApiMixResult> {
  const { url, headers, servers, rate, seconds } = options;
  const total = Math.round(rate * seconds);
  const okMs: number[] = [];
  const refusedMs: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (why: string) => {
    errors += 1;
    if (errorSamples.length < 8) errorSamples.push(why);
  };

  const positions = servers.map(() => 0);
  /** The files a write has made, by server and file. */
  const written = new Set<string>();
  const send = async (index: number) => {
    const serverIndex = index % servers.length;
    const server = servers[serverIndex];
    const position = positions[serverIndex] ?? 0;
    positions[serverIndex] = position + 1;
    const call = MIX[position % MIX.length];
    if (!server || !call) return;
    const cycle = Math.floor(position / MIX.length);
    const { method, path, body, expect } = call(server, cycle);
    // A read-back of a file no write has made yet (its write still on its way, or refused with a 503): not there
    // yet is the right answer then.
    const key = `${server.identifier} ${cycle % 8}`;
    const notYet = (status: number) => expect !== undefined && status === 404 && !written.has(key);
    const started = performance.now();
    try {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'text/plain' },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (method === 'POST' && response.ok) written.add(key);
      if (response.status === 503) refusedMs.push(ms);
      else if (notYet(response.status)) okMs.push(ms);
      else if (!response.ok) fail(`${method} ${path}: ${response.status} ${text.slice(0, 160)}`);
      // A read-back sees the text its server wrote (the write just before it may still be on its way: the file then
      // holds the same text from an earlier cycle).
      else if (expect !== undefined && text !== expect) fail(`${path}: read back "${text.slice(0, 80)}"`);
      else okMs.push(ms);
    } catch (error) {
      // fetch's own message ("fetch failed") hides what happened: the cause says it (ECONNRESET, a closed socket…).
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      const why = cause ? ` (${cause.code ?? cause.message})` : '';
      fail(`${method} ${path}: ${(error as Error).name} ${(error as Error).message}${why}`);
    }
  };

  const inFlight = new Set<Promise<void>>();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const start = performance.now();
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    for (; sent < due; sent++) {
      const request = send(sent).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(inFlight);
  lag.disable();
  okMs.sort((a, b) => a - b);
  refusedMs.sort((a, b) => a - b);
  return {
    offered: rate,
    ok: okMs.length,
    refused: refusedMs.length,
    errors,
    errorSamples,
    okP50Ms: percentile(okMs, 0.5),
    okP99Ms: percentile(okMs, 0.99),
    refusedP99Ms: percentile(refusedMs, 0.99),
    loopDelayP99Ms: lag.percentile(99) / 1e6,
  };
}

/**
 * CPU time of the panel and the daemon per request of each call of the mix, asked alone: `requests` of it spread over
 * the servers, `concurrency` at a time (closed loop, so the processes are busy but never behind). Where the time of
 * the mix goes, route by route.
 */
export async function routeCosts(options: {
  url: string;
  headers: Record<string, string>;
  servers: readonly SoakServer[];
  requests: number;
  concurrency: number;
  cpuMs: () => { panel: number; daemon: number };
  /** Called around each route's requests: a profiler started before and stopped after, for one. */
  around?: (name: string) => Promise<() => Promise<void>>;
}): Promise<{ name: string; panelMs: number; daemonMs: number; failed: number }[]> {
  const { url, headers, servers, requests, concurrency, cpuMs } = options;
  const costs = [];
  for (const [index, call] of MIX.entries()) {
    let next = 0;
    let failed = 0;
    const worker = async () => {
      for (let sent = next++; sent < requests; sent = next++) {
        const server = servers[sent % servers.length];
        if (!server) return;
        const { method, path, body } = call(server, Math.floor(sent / servers.length));
        const response = await fetch(`${url}${path}`, {
          method,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'text/plain' },
          body,
        });
        await response.arrayBuffer();
        if (!response.ok && response.status !== 404) failed += 1;
      }
    };
    const name = MIX_NAMES[index] ?? String(index);
    const done = await options.around?.(name);
    const before = cpuMs();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const after = cpuMs();
    await done?.();
    costs.push({
      name,
      panelMs: (after.panel - before.panel) / requests,
      daemonMs: (after.daemon - before.daemon) / requests,
      failed,
    });
  }
  return costs;
}
