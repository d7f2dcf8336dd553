import { randomUUID } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { demoConfiguration } from '@aerie/daemon/testing/panel-stand-in';
import { nodeStartup } from '@aerie/daemon/testing/server-fixtures';
import { BenchClient, clientAddress } from './console-clients';
import { startBenchDaemon } from './console-daemon';

export interface RestartResult {
  servers: number;
  sockets: number;
  /** Lines per second each game prints. */
  rate: number;
  /** kill -9 → the new daemon listening. */
  downMs: number;
  /** kill -9 → a socket gets a line printed after it was connected again: median and slowest socket. */
  streamingAgainMedianMs: number;
  streamingAgainMaxMs: number;
  /** Lines all games printed while no daemon ran (kill → listening). */
  printedWhileDown: number;
  /** Lines each socket should have had, summed over sockets. */
  expected: number;
  /** Of those, lines a socket never got (live or from `send logs` after reconnecting). */
  lost: number;
  /** Of the lost lines, those printed while no daemon ran. */
  lostWhileDown: number;
}

/** The game's file name in each server's volume. */
export const GAME_FILE = 'console-game.mjs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A socket on the current daemon, retried until the daemon takes it (it may still be booting, or the token too old). */
async function reconnect(
  url: () => string,
  origin: string,
  token: () => Promise<string>,
  localAddress: string,
): Promise<BenchClient> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await BenchClient.connect(url(), origin, await token(), localAddress);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

/**
 * `servers` games print `rate` lines/s each for `seconds`, watched by `sockets` sockets spread over them; a third
 * of the way in the daemon is killed with SIGKILL and a new one started on the same data directory (as `aerie up`'s
 * supervisor does). Each socket reconnects as a browser does, asks for the history (`send logs`), and streams on.
 */
export async function measureRestart(options: {
  gameScript: string;
  servers: number;
  sockets: number;
  rate: number;
  seconds: number;
}): Promise<RestartResult> {
  const { servers, sockets, rate, seconds } = options;
  const lines = rate * seconds;
  const uuids = Array.from({ length: servers }, () => randomUUID());
  const configurations = uuids.map((uuid) =>
    demoConfiguration(uuid, { invocation: nodeStartup(GAME_FILE), memoryMb: 0, skipScripts: true }),
  );
  const daemon = await startBenchDaemon(configurations);
  const clients: { uuid: string; address: string; client: BenchClient }[] = [];
  try {
    for (const uuid of uuids) {
      // The sandboxed game sees its volume only.
      await copyFile(options.gameScript, path.join(daemon.volume(uuid), GAME_FILE));
      const started = await daemon.request('POST', `/api/servers/${uuid}/power`, { action: 'start' });
      if (started.status !== 202) throw new Error(`power start answered ${started.status}`);
    }
    for (const uuid of uuids) {
      const deadline = Date.now() + 60_000;
      while (
        ((await daemon.request('GET', `/api/servers/${uuid}`)).body as { state: string }).state !== 'running'
      ) {
        if (Date.now() > deadline) throw new Error('a server did not reach running');
        await sleep(100);
      }
    }
    for (let index = 0; index < sockets; index += 1) {
      const uuid = uuids[index % servers] as string;
      const address = clientAddress(index);
      const client = await BenchClient.connect(
        daemon.socketUrl(uuid),
        daemon.panel.url,
        await daemon.token(uuid),
        address,
      );
      client.reset(lines);
      clients.push({ uuid, address, client });
    }
    const firstOf = new Map(
      uuids.map((uuid) => [uuid, clients.find((entry) => entry.uuid === uuid)?.client]),
    );
    for (const client of firstOf.values()) client?.send('send command', [`tick ${lines} ${rate}`]);
    await sleep((seconds * 1000) / 3);

    const killedNs = process.hrtime.bigint();
    await daemon.crash();
    await daemon.restart();
    const listeningNs = process.hrtime.bigint();
    await Promise.all(
      clients.map(async (entry) => {
        const record = entry.client.record;
        entry.client.close();
        const again = await reconnect(
          () => daemon.socketUrl(entry.uuid),
          daemon.panel.url,
          () => daemon.token(entry.uuid),
          entry.address,
        );
        // One record across both connections: what the socket saw before, plus the history and what follows.
        again.record = record;
        again.liveSince = process.hrtime.bigint();
        again.send('send logs', []);
        entry.client = again;
      }),
    );
    const timeoutMs = seconds * 1000 + 60_000;
    await Promise.allSettled(clients.map((entry) => entry.client.waitForLine('tick done', timeoutMs)));

    // When each line was printed, from the game's clock: line i at the first line's stamp + i / rate.
    const firstStamp = (uuid: string) => {
      const seen = clients.find((entry) => entry.uuid === uuid)?.client.record;
      return seen?.firstSentNs;
    };
    const printedAt = new Map<string, bigint | undefined>(uuids.map((uuid) => [uuid, firstStamp(uuid)]));
    const whileDown = (uuid: string, index: number) => {
      const first = printedAt.get(uuid);
      if (first === undefined) return false;
      const at = first + BigInt(Math.round((index * 1e9) / rate));
      return at >= killedNs && at <= listeningNs;
    };
    let lost = 0;
    let lostWhileDown = 0;
    for (const { uuid, client } of clients) {
      client.record.seen.forEach((seen, index) => {
        if (seen) return;
        lost += 1;
        if (whileDown(uuid, index)) lostWhileDown += 1;
      });
    }
    let printedWhileDown = 0;
    for (const uuid of uuids) {
      for (let index = 0; index < lines; index += 1) if (whileDown(uuid, index)) printedWhileDown += 1;
    }
    const again = clients
      .map((entry) => entry.client.liveAgainNs)
      .map((ns) => (ns === undefined ? Number.POSITIVE_INFINITY : Number(ns - killedNs) / 1e6))
      .sort((a, b) => a - b);
    return {
      servers,
      sockets,
      rate,
      downMs: Number(listeningNs - killedNs) / 1e6,
      streamingAgainMedianMs: again[Math.floor(again.length / 2)] ?? Number.NaN,
      streamingAgainMaxMs: again.at(-1) ?? Number.NaN,
      printedWhileDown,
      expected: clients.length * lines,
      lost,
      lostWhileDown,
    };
  } finally {
    for (const { client } of clients) client.close();
    await daemon.stop();
  }
}
