import type { FloodResult } from './console-flood';
import { medianClientRate } from './console-flood';
import type { IdleResult } from './console-idle';
import type { LatencyResult } from './console-latency';
import type { RestartResult } from './console-restart';
import { median, mib, printTable, ratio } from './measure';

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;

export function printFlood(daemon: FloodResult, baseline: FloodResult, clients: number): void {
  const perClient = (r: FloodResult) => median(r.perClient.map((c) => c.received));
  const range = (r: FloodResult) => {
    const received = r.perClient.map((c) => c.received);
    return `${count(Math.min(...received))}–${count(Math.max(...received))}`;
  };
  const notices = (r: FloodResult) => median(r.perClient.map((c) => c.throttleNotices));
  const row = (name: string, d: number, b: number, show = count) => [name, show(d), show(b), ratio(d, b)];
  console.log(
    `\n1. flood: the game prints ${count(daemon.printed)} lines flat out, ${clients} clients attached`,
  );
  printTable(
    ['', 'daemon', 'bare ws', 'ratio'],
    [
      row('game print time (ms)', daemon.gameMs, baseline.gameMs),
      row('lines delivered, all clients', daemon.totalReceived, baseline.totalReceived),
      row('lines delivered per client (median)', perClient(daemon), perClient(baseline)),
      ['  per client, min–max', range(daemon), range(baseline), ''],
      row('lines/s per client (median)', medianClientRate(daemon), medianClientRate(baseline)),
      row('lines/s, all clients', daemon.totalLinesPerSecond, baseline.totalLinesPerSecond),
      [
        'lines no client got (throttle)',
        count(daemon.missingEverywhere),
        count(baseline.missingEverywhere),
        '',
      ],
      [
        'lines some clients lost (slow socket)',
        count(daemon.missingSomewhere),
        count(baseline.missingSomewhere),
        '',
      ],
      ['throttle notices per client (median)', count(notices(daemon)), count(notices(baseline)), ''],
      ['clients that saw the end', String(daemon.clientsDone), String(baseline.clientsDone), ''],
      row('RSS before', daemon.rssBefore, baseline.rssBefore, mib),
      row('RSS peak', daemon.rssPeak, baseline.rssPeak, mib),
      row('RSS after (3 s later)', daemon.rssAfter, baseline.rssAfter, mib),
      row(
        'RSS growth at peak',
        daemon.rssPeak - daemon.rssBefore,
        baseline.rssPeak - baseline.rssBefore,
        mib,
      ),
    ],
  );
}

export function printLatency(daemon: LatencyResult, baseline: LatencyResult, rate: number): void {
  console.log(
    `\n2. latency: game process to client socket, one line at a time at ${rate} lines/s (all clients pooled)`,
  );
  printTable(
    ['', 'daemon', 'bare ws', 'ratio'],
    [
      ['p50', ms(daemon.p50Us), ms(baseline.p50Us), ratio(daemon.p50Us, baseline.p50Us)],
      ['p99', ms(daemon.p99Us), ms(baseline.p99Us), ratio(daemon.p99Us, baseline.p99Us)],
      ['max', ms(daemon.maxUs), ms(baseline.maxUs), ratio(daemon.maxUs, baseline.maxUs)],
      [
        'lines received / printed × clients',
        `${count(daemon.received)} / ${count(daemon.printed)}`,
        `${count(baseline.received)} / ${count(baseline.printed)}`,
        '',
      ],
    ],
  );
}

export function printIdle(idle: IdleResult): void {
  const perServer = (idle.daemonLoadedRss - idle.daemonEmptyRss) / idle.servers;
  console.log(`\n3. idle: the daemon's own RSS with ${idle.servers} demo servers running idle`);
  const empty = [
    ['baseline: bare node process', mib(idle.bareNodeRss), '1.000'],
    ['daemon, 0 servers', mib(idle.daemonEmptyRss), ratio(idle.daemonEmptyRss, idle.bareNodeRss)],
  ];
  if (idle.servers === 0) {
    printTable(['', 'RSS', 'ratio to bare node'], empty);
    return;
  }
  printTable(
    ['', 'RSS', 'ratio to bare node'],
    [
      ...empty,
      [
        `daemon, ${idle.servers} servers`,
        mib(idle.daemonLoadedRss),
        ratio(idle.daemonLoadedRss, idle.bareNodeRss),
      ],
      ['daemon cost per server', mib(perServer), ratio(perServer, idle.bareNodeRss)],
      [`game processes, ${idle.servers} servers (not the daemon)`, mib(idle.gamesRss), ''],
      [
        'game processes, per server',
        mib(idle.gamesRss / idle.servers),
        ratio(idle.gamesRss / idle.servers, idle.bareNodeRss),
      ],
    ],
  );
  console.log(
    `daemon CPU while the ${idle.servers} servers idle: ${idle.daemonIdleCpuPercent.toFixed(1)} % of one core`,
  );
}

export function printRestart(result: RestartResult): void {
  const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
  const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(3)} %`;
  console.log(
    `\n4. restart: ${result.servers} games at ${result.rate} lines/s each, ${result.sockets} sockets; the daemon is killed (SIGKILL) a third of the way in and started again`,
  );
  printTable(
    ['', 'figure', 'baseline', 'ratio'],
    [
      ['daemon down (kill → listening)', seconds(result.downMs), '', ''],
      [
        'every socket streaming again (median)',
        seconds(result.streamingAgainMedianMs),
        seconds(result.downMs),
        ratio(result.streamingAgainMedianMs, result.downMs),
      ],
      [
        'every socket streaming again (slowest)',
        seconds(result.streamingAgainMaxMs),
        seconds(result.downMs),
        ratio(result.streamingAgainMaxMs, result.downMs),
      ],
      ['lines each socket should get, summed', count(result.expected), '', ''],
      [
        'lines lost, summed over sockets',
        count(result.lost),
        count(result.expected),
        share(result.lost, result.expected),
      ],
      [
        '  of which printed while the daemon was down',
        count(result.lostWhileDown),
        count((result.printedWhileDown * result.sockets) / result.servers),
        share(result.lostWhileDown, (result.printedWhileDown * result.sockets) / result.servers),
      ],
    ],
  );
  console.log(
    "  baselines: the daemon's own downtime; the lines the sockets would lose without the holders' logs (every line printed while the daemon was down)",
  );
}
