import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@aerie/daemon/runtime/docker/docker-test-engine';
import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostAddress, hostileGame, hostService, play } from './testing/hostile-game';
import { prepareUnprivilegedDaemon, UNPRIVILEGED_UID, UnprivilegedDaemon } from './user-mode-driver-client';
import { UserModeNetwork } from './user-mode-network';
import type { UserModeRun } from './user-mode-runs';

/**
 * The same hostile game as game-network.test.ts, under a daemon that is NOT root: the daemon's code runs as an
 * unprivileged uid (a bundled driver under setpriv) and gives each game a user-mode namespace with slirp4netns.
 * The test itself is root to fake the internet (a namespace at 198.51.100.10, TEST-NET-2, as game-network.test.ts,
 * which may run at the same time, takes TEST-NET-3; with a "private" host at 192.168.77.10 behind it) and to switch
 * uids. Needs slirp4netns and bubblewrap: CI installs both.
 */
const root = process.getuid?.() === 0;
const available =
  root && (process.env.CI === 'true' || (existsSync('/usr/bin/slirp4netns') && existsSync('/usr/bin/bwrap')));

const GAME = hostileGame(`
import { createSocket } from 'node:dgram';
import { promises as dns } from 'node:dns';
console.log('uid ' + process.getuid());
if (process.env.RESOLVE) {
  await dns.resolve4(process.env.RESOLVE).then(
    (addresses) => console.log('resolve ok ' + addresses.sort().join(' ')),
    (error) => console.log('resolve failed ' + error.code),
  );
}
const udp = createSocket('udp4');
udp.on('message', (message, from) => udp.send('game ' + process.env.NAME + '\\n', from.port, from.address));
await new Promise((done) => udp.bind(Number(process.env.SERVER_PORT), process.env.SERVER_IP, done));
`);

/** The unprivileged daemon, starting the hostile game. */
function startGame(
  daemon: UnprivilegedDaemon,
  name: string,
  allocations: RuntimeAllocations,
  environment: Record<string, string> = {},
) {
  return daemon.start(name, GAME, allocations, {
    NAME: name,
    SERVER_IP: allocations.default.ip,
    SERVER_PORT: String(allocations.default.port),
    ...environment,
  });
}

/** What a player on the node gets back for one datagram to host:port, or 'nothing'. */
function playUdp(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (result: string) => {
      clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    const timer = setTimeout(() => done('nothing'), 3000);
    socket.on('message', (message) => done(message.toString().trim()));
    socket.on('error', () => done('nothing'));
    socket.send('hello', port, host);
  });
}

/** True while the process runs (a zombie is not running). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function runRecord(dataDirectory: string, uuid: string): Promise<UserModeRun> {
  const file = path.join(dataDirectory, 'network', 'user-mode', `${uuid}.json`);
  return JSON.parse(await readFile(file, 'utf8')) as UserModeRun;
}

describe.runIf(root)('detecting the user-mode network', () => {
  it('says what is missing instead of making one', async () => {
    const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-um-detect-'));
    try {
      const find = (missing: string) => (name: string) => (name === missing ? undefined : `/usr/bin/${name}`);
      const detect = (missing: string) =>
        UserModeNetwork.detect({ allowed: [], find: find(missing), dataDirectory });
      expect(await detect('slirp4netns')).toBe('the daemon is not root, and slirp4netns is not installed');
      expect(await detect('nft')).toBe('the daemon is not root, and nftables (nft) is not installed');
    } finally {
      await rm(dataDirectory, { recursive: true, force: true });
    }
  });
});

describe.runIf(available).each(['bubblewrap', 'unshare'] as const)(
  'a game server in a user-mode network namespace (%s, daemon not root)',
  (kind) => {
    let dataDirectory: string;
    let driver: UnprivilegedDaemon;
    let script: string;
    const listeners: Server[] = [];
    const internet = { namespace: `aerie-uinet-${process.pid}`, link: `aut${process.pid % 100000}` };
    let webPid: number | undefined;

    beforeAll(async () => {
      const prepared = await prepareUnprivilegedDaemon();
      dataDirectory = prepared.dataDirectory;
      script = prepared.script;

      const { namespace, link } = internet;
      const ip = (...args: string[]) => execFileSync('ip', args);
      ip('netns', 'add', namespace);
      ip('link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
      ip('addr', 'add', '198.51.100.1/24', 'dev', link);
      ip('link', 'set', link, 'up');
      // replace: a run killed before its clean-up may have left the route.
      ip('route', 'replace', '192.168.77.10/32', 'via', '198.51.100.10');
      ip('-n', namespace, 'addr', 'add', '198.51.100.10/24', 'dev', 'eth0');
      ip('-n', namespace, 'addr', 'add', '192.168.77.10/32', 'dev', 'eth0');
      ip('-n', namespace, 'link', 'set', 'eth0', 'up');
      ip('-n', namespace, 'link', 'set', 'lo', 'up');
      ip('-n', namespace, 'route', 'add', 'default', 'via', '198.51.100.1');
      // A web server out there, answering on both addresses and two ports.
      const web = spawn(
        'ip',
        [
          'netns',
          'exec',
          namespace,
          process.execPath,
          '-e',
          "for (const p of [80, 81]) require('net').createServer((s)=>s.end('web\\n')).listen(p)",
        ],
        { stdio: 'ignore' },
      );
      webPid = web.pid;

      driver = new UnprivilegedDaemon({ script, dataDirectory, kind });
      await driver.detected();
    }, 120_000);

    afterAll(async () => {
      await driver?.stop();
      for (const server of listeners) server.close();
      try {
        if (webPid) process.kill(webPid);
      } catch {
        // It ended with its namespace.
      }
      try {
        execFileSync('ip', ['netns', 'delete', internet.namespace]);
      } catch {}
      await rm(dataDirectory, { recursive: true, force: true });
    });

    it('says so when the daemon starts', async () => {
      const detected = await driver.detected();
      expect(detected.isolates).toBe(true);
      expect(detected.describe).toContain('network: a user-mode network namespace per server (slirp4netns');
    });

    it('reaches the internet and its players, but nothing of the host, private networks or other servers', {
      timeout: 60_000,
    }, async () => {
      const panel = await hostService(listeners, '127.0.0.1');
      const redis = await hostService(listeners, '127.0.0.1');
      const everywhere = await hostService(listeners, '0.0.0.0');
      const lan = hostAddress(['aerie', 'aut']);

      const portB = await freePort();
      const b = await startGame(driver, 'B', { default: { ip: '127.0.0.1', port: portB }, mappings: {} });
      expect(b).toHaveProperty('uuid');
      expect(driver.lines('B')).toContain('ready on 0.0.0.0');

      const portA = await freePort();
      const probes = [
        `panel:127.0.0.1:${panel}`,
        `redis:127.0.0.1:${redis}`,
        `host-any:127.0.0.1:${everywhere}`,
        `gateway:10.0.2.2:${everywhere}`,
        ...(lan ? [`host-lan:${lan}:${everywhere}`] : []),
        'private:192.168.77.10:80',
        'internet:198.51.100.10:80',
      ];
      // A name the host resolves, resolved by the game through slirp4netns's forwarder (where the host has DNS).
      const name = 'deb.debian.org';
      const hostResolves = await dns.resolve4(name).then(
        () => true,
        () => false,
      );
      const a = await startGame(
        driver,
        'A',
        { default: { ip: '0.0.0.0', port: portA }, mappings: { '0.0.0.0': [portA] } },
        { PROBES: probes.join(','), EXTRA_PORTS: String(portB), RESOLVE: name },
      );
      expect(a).toHaveProperty('uuid');
      const results = Object.fromEntries(
        driver
          .lines('A')
          .filter((line) => line.startsWith('probe '))
          .map((line) => line.split(' ').slice(1)),
      );
      expect(results).toEqual({
        panel: 'blocked',
        redis: 'blocked',
        'host-any': 'blocked',
        gateway: 'blocked',
        ...(lan ? { 'host-lan': 'blocked' } : {}),
        private: 'blocked',
        internet: 'ok',
      });
      // The game is not root over its namespace: bubblewrap shows it the daemon's uid (the unshare fallback, root
      // of its own nested namespace, as without a network namespace).
      expect(driver.lines('A')).toContain(kind === 'bubblewrap' ? `uid ${UNPRIVILEGED_UID}` : 'uid 0');
      // Binding B's port inside its own namespace changes nothing for B's players.
      expect(driver.lines('A')).toContain(`bind ${portB} ok`);
      expect(await play('127.0.0.1', portB)).toBe('game B');
      expect(await play('127.0.0.1', portA)).toBe('game A');
      if (lan) expect(await play(lan, portA)).toBe('game A');
      // Its udp port too, from the node's address (slirp4netns cannot answer a udp client on the host's loopback).
      if (lan) expect(await playUdp(lan, portA)).toBe('game A');
      // Any answer: a CDN's name may resolve to other addresses a moment later.
      if (hostResolves)
        expect(driver.lines('A').find((line) => line.startsWith('resolve '))).toMatch(/^resolve ok \d/);
    });

    it('lets a game reach a private destination an admin allowed, and nothing more', {
      timeout: 30_000,
    }, async () => {
      const allowing = new UnprivilegedDaemon({ script, dataDirectory, kind, allow: '192.168.77.10:80' });
      try {
        await allowing.detected();
        const panel = await hostService(listeners, '127.0.0.1');
        const probes = [
          'private:192.168.77.10:80',
          'private-other-port:192.168.77.10:81',
          `panel:127.0.0.1:${panel}`,
        ];
        const port = await freePort();
        await startGame(
          allowing,
          'allowed',
          { default: { ip: '127.0.0.1', port }, mappings: {} },
          { PROBES: probes.join(',') },
        );
        const results = Object.fromEntries(
          allowing
            .lines('allowed')
            .filter((line) => line.startsWith('probe '))
            .map((line) => line.split(' ').slice(1)),
        );
        expect(results).toEqual({ private: 'ok', 'private-other-port': 'blocked', panel: 'blocked' });
      } finally {
        await allowing.stop();
      }
    });

    it('refuses to start a server on a port a running server holds', { timeout: 30_000 }, async () => {
      const port = await freePort();
      expect(
        await startGame(driver, 'first', { default: { ip: '127.0.0.1', port }, mappings: {} }),
      ).toHaveProperty('uuid');
      expect(await startGame(driver, 'second', { default: { ip: '127.0.0.1', port }, mappings: {} })).toEqual(
        {
          error: 'PortTakenError',
          message: `Port ${port} (tcp) cannot be published on 127.0.0.1: another running server or program on this node holds it.`,
        },
      );
      expect(await play('127.0.0.1', port)).toBe('game first');
    });

    it("refuses to start a server whose allocation's address is not the node's", {
      timeout: 30_000,
    }, async () => {
      const port = await freePort();
      expect(
        await startGame(driver, 'elsewhere', { default: { ip: '192.0.2.250', port }, mappings: {} }),
      ).toEqual({
        error: 'Error',
        message: `Port ${port} cannot be published on 192.0.2.250: that address is not one of this node's.`,
      });
    });

    it('ends slirp4netns and the namespace keeper when the game ends', { timeout: 30_000 }, async () => {
      const port = await freePort();
      const game = await startGame(driver, 'short', { default: { ip: '127.0.0.1', port }, mappings: {} });
      if (!('uuid' in game)) throw new Error(game.message);
      const run = await runRecord(dataDirectory, game.uuid);
      expect(alive(run.keeper.pid)).toBe(true);
      expect(run.slirp && alive(run.slirp.pid)).toBe(true);
      driver.send({ op: 'kill', name: 'short' });
      await driver.until((event) => event.op === 'exited' && event.name === 'short');
      expect(alive(run.keeper.pid)).toBe(false);
      expect(run.slirp && alive(run.slirp.pid)).toBe(false);
      expect(await play('127.0.0.1', port)).toBe('nothing');
    });

    it('keeps running games their network when the daemon dies; the next daemon ends only what a gone game left', {
      timeout: 30_000,
    }, async () => {
      const crashing = new UnprivilegedDaemon({ script, dataDirectory, kind });
      await crashing.detected();
      const keptPort = await freePort();
      const gonePort = await freePort();
      const kept = await startGame(crashing, 'kept', {
        default: { ip: '127.0.0.1', port: keptPort },
        mappings: {},
      });
      const gone = await startGame(crashing, 'gone', {
        default: { ip: '127.0.0.1', port: gonePort },
        mappings: {},
      });
      if (!('uuid' in kept) || !('uuid' in gone)) throw new Error('a game did not start');
      crashing.crash();
      await crashing.ended;
      const next = new UnprivilegedDaemon({ script, dataDirectory, kind });
      try {
        const keptRun = await runRecord(dataDirectory, kept.uuid);
        const goneRun = await runRecord(dataDirectory, gone.uuid);
        expect(await play('127.0.0.1', keptPort)).toBe('game kept');
        expect(await play('127.0.0.1', gonePort)).toBe('game gone');
        await next.detected();
        next.send({ op: 'abandon', uuid: gone.uuid });
        await next.until((event) => event.op === 'abandoned' && event.uuid === gone.uuid);
        expect(alive(goneRun.keeper.pid)).toBe(false);
        expect(goneRun.slirp && alive(goneRun.slirp.pid)).toBe(false);
        expect(await play('127.0.0.1', gonePort)).toBe('nothing');
        expect(alive(keptRun.keeper.pid)).toBe(true);
        expect(await play('127.0.0.1', keptPort)).toBe('game kept');
      } finally {
        // Whatever happened, neither game outlives the test.
        for (const uuid of [kept.uuid, gone.uuid]) {
          next.send({ op: 'abandon', uuid });
          await next.until((event) => event.op === 'abandoned' && event.uuid === uuid);
        }
        await next.stop();
      }
    });
  },
);
