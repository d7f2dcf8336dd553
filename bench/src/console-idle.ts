import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { demoConfiguration } from '@aerie/daemon/testing/panel-stand-in';
import type { BenchDaemon } from './console-daemon';
import { cpuMs, descendants, rssBytes, settledRss } from './console-rss';

export interface IdleResult {
  bareNodeRss: number;
  daemonEmptyRss: number;
  daemonLoadedRss: number;
  servers: number;
  /** RSS of every game process (the demo servers and their shells), which the host pays besides the daemon. */
  gamesRss: number;
  /** The daemon's CPU use while its servers idle, in percent of one core. */
  daemonIdleCpuPercent: number;
}

/** A bare Node process doing nothing, measured the same way: the least any Node daemon costs. */
async function bareNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return await settledRss(child.pid ?? 0, 3, 300);
  } finally {
    child.kill('SIGKILL');
  }
}

async function waitUntilRunning(daemon: BenchDaemon, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = (await daemon.request('GET', '/api/servers')).body as { state: string }[];
    const running = list.filter((server) => server.state === 'running').length;
    if (running === count) return;
    if (Date.now() > deadline) throw new Error(`only ${running} of ${count} servers running`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * The daemon's RSS with no server, then with `count` demo servers (eggs/demo, created through POST /api/servers
 * as the panel would, install skipped) running idle, after they settle.
 */
export async function measureIdleServers(daemon: BenchDaemon, count: number): Promise<IdleResult> {
  const bare = await bareNodeRss();
  const daemonEmptyRss = await settledRss(daemon.pid);
  for (let index = 0; index < count; index += 1) {
    const uuid = randomUUID();
    daemon.panel.servers.set(uuid, demoConfiguration(uuid, { skipScripts: true }));
    const created = await daemon.request('POST', '/api/servers', { uuid, start_on_completion: true });
    if (created.status !== 202) throw new Error(`POST /api/servers answered ${created.status}`);
  }
  await waitUntilRunning(daemon, count, 120_000);
  // Starting 100 processes is a burst of work; idle means after the stats timers have settled into their pace.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const cpuBefore = cpuMs(daemon.pid);
  const daemonLoadedRss = await settledRss(daemon.pid, 11, 500);
  const daemonIdleCpuPercent = ((cpuMs(daemon.pid) - cpuBefore) / 5500) * 100;
  const gamesRss = descendants(daemon.pid).reduce((sum, pid) => sum + rssBytes(pid), 0);
  return {
    bareNodeRss: bare,
    daemonEmptyRss,
    daemonLoadedRss,
    servers: count,
    gamesRss,
    daemonIdleCpuPercent,
  };
}
