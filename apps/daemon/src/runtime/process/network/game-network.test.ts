import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@aerie/daemon/runtime/docker/docker-test-engine';
import type { ProcessRuntime } from '@aerie/daemon/runtime/process/process-runtime';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import type { RuntimeAllocations, RuntimeExit } from '@aerie/daemon/runtime/runtime';
import { startOptions, TEST_LIMITS } from '@aerie/daemon/testing/server-fixtures';
import { testProcessRuntime } from '@aerie/daemon/testing/test-run-directory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespaceName } from './game-network-plan';
import { hostAddress, hostileGame, hostService, play } from './testing/hostile-game';

/**
 * A game is hostile: from inside its sandbox it tries every door a real attacker tried (the panel, the daemon, a
 * Redis and a database on the host's loopback, the host's own address, another server, another server's port), and
 * players must still reach it on its allocation, while it still reaches the internet (an "internet" host here is
 * a namespace at 203.0.113.10, TEST-NET-3). Needs a root daemon with nftables: CI has both.
 */
const root = process.getuid?.() === 0;
const available =
  root && (process.env.CI === 'true' || (existsSync('/usr/sbin/nft') && existsSync('/usr/bin/bwrap')));

let dataDirectory: string;
let sandbox: ProcessSandbox;
const listeners: Server[] = [];
const runtimes: ProcessRuntime[] = [];
const internet = { namespace: `aerie-inet-${process.pid}`, link: `ait${process.pid % 100000}` };

/** The game (see hostileGame). */
const GAME = hostileGame();

async function startGame(
  name: string,
  allocations: RuntimeAllocations,
  environment: Record<string, string> = {},
): Promise<{ runtime: ProcessRuntime; lines: string[]; uuid: string; exited: Promise<RuntimeExit> }> {
  const uuid = randomUUID();
  const directory = path.join(dataDirectory, 'volumes', uuid);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await writeFile(path.join(directory, 'game.mjs'), GAME);
  const runtime = testProcessRuntime(sandbox);
  runtimes.push(runtime);
  const lines: string[] = [];
  runtime.on('output', (line) => lines.push(line));
  // Games here run until killed: no time-out on their exit.
  const exited = new Promise<RuntimeExit>((resolve) => runtime.once('exit', resolve));
  await runtime.start({
    ...startOptions({ directory, startup: 'node game.mjs' }),
    uuid,
    limits: TEST_LIMITS,
    allocations,
    environment: {
      NAME: name,
      SERVER_IP: allocations.default.ip,
      SERVER_PORT: String(allocations.default.port),
      ...environment,
    },
  });
  return { runtime, lines, uuid, exited };
}

async function untilLine(lines: string[], prefix: string, exited?: Promise<RuntimeExit>): Promise<string> {
  let over = false;
  void exited?.then(() => {
    over = true;
  });
  for (let i = 0; i < 600; i++) {
    const line = lines.find((text) => text.startsWith(prefix));
    if (line) return line;
    if (over) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no "${prefix}" line; the game said: ${lines.join(' | ')}`);
}

function gameAddress(uuid: string): string {
  const text = execFileSync('ip', ['-n', namespaceName(uuid), '-j', '-4', 'addr', 'show', 'dev', 'eth0'], {
    encoding: 'utf8',
  });
  return (JSON.parse(text) as { addr_info: { local: string }[] }[])[0]?.addr_info[0]?.local as string;
}

// Both ways of making the sandbox join the namespace: bubblewrap, and unshare where bubblewrap is missing.
describe.runIf(available).each(['bubblewrap', 'unshare'] as const)(
  'a game server in its own network namespace (%s, root)',
  (kind) => {
    beforeAll(async () => {
      dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-network-test-'));
      sandbox = await ProcessSandbox.detect({
        dataDirectory,
        ...(kind === 'unshare' ? { without: 'bubblewrap' as const } : {}),
      });
      // The internet, as far as a game can tell: a host at 203.0.113.10 routed through this machine.
      const { namespace, link } = internet;
      const ip = (...args: string[]) => execFileSync('ip', args);
      ip('netns', 'add', namespace);
      ip('link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
      ip('addr', 'add', '203.0.113.1/24', 'dev', link);
      ip('link', 'set', link, 'up');
      ip('-n', namespace, 'addr', 'add', '203.0.113.10/24', 'dev', 'eth0');
      ip('-n', namespace, 'link', 'set', 'eth0', 'up');
      ip('-n', namespace, 'link', 'set', 'lo', 'up');
      ip('-n', namespace, 'route', 'add', 'default', 'via', '203.0.113.1');
      // A web server out there.
      const web = `require('net').createServer((s)=>s.end('web\\n')).listen(80,'0.0.0.0')`;
      execFileSync('sh', [
        '-c',
        `ip netns exec ${namespace} ${process.execPath} -e "${web}" >/dev/null 2>&1 & echo $! > ${dataDirectory}/web.pid`,
      ]);
    });

    afterAll(async () => {
      for (const runtime of runtimes) runtime.kill();
      for (const server of listeners) server.close();
      try {
        execFileSync('sh', ['-c', `kill $(cat ${dataDirectory}/web.pid)`]);
      } catch {}
      try {
        execFileSync('ip', ['netns', 'delete', internet.namespace]);
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 500));
      await rm(dataDirectory, { recursive: true, force: true });
    });

    it('says so when the daemon starts', () => {
      expect(sandbox.describe()).toContain('network: a network namespace per server');
      expect(sandbox.isolatesNetwork).toBe(true);
    });

    it('reaches the internet and its players, but nothing of the host, private networks or other servers', {
      timeout: 30_000,
    }, async () => {
      const panel = await hostService(listeners, '127.0.0.1');
      const daemon = await hostService(listeners, '127.0.0.1');
      const redis = await hostService(listeners, '127.0.0.1');
      const database = await hostService(listeners, '127.0.0.1');
      const everywhere = await hostService(listeners, '0.0.0.0');
      const lan = hostAddress(['aerie', 'ait']);

      const portB = await freePort();
      const b = await startGame('B', {
        default: { ip: '127.0.0.1', port: portB },
        mappings: { '127.0.0.1': [portB] },
      });
      expect(await untilLine(b.lines, 'ready', b.exited)).toBe('ready on 0.0.0.0');

      const portA = await freePort();
      const probes = [
        `panel:127.0.0.1:${panel}`,
        `daemon:127.0.0.1:${daemon}`,
        `redis:127.0.0.1:${redis}`,
        `database:127.0.0.1:${database}`,
        `host-any:127.0.0.1:${everywhere}`,
        ...(lan ? [`host-lan:${lan}:${everywhere}`] : []),
        `server-b:${gameAddress(b.uuid)}:${portB}`,
        'internet:203.0.113.10:80',
      ];
      const a = await startGame(
        'A',
        { default: { ip: '0.0.0.0', port: portA }, mappings: { '0.0.0.0': [portA] } },
        // It also takes B's port for itself.
        { PROBES: probes.join(','), EXTRA_PORTS: String(portB) },
      );
      await untilLine(a.lines, 'ready', a.exited);
      const results = Object.fromEntries(
        a.lines.filter((line) => line.startsWith('probe ')).map((line) => line.split(' ').slice(1)),
      );
      expect(results).toEqual({
        panel: 'blocked',
        daemon: 'blocked',
        redis: 'blocked',
        database: 'blocked',
        'host-any': 'blocked',
        ...(lan ? { 'host-lan': 'blocked' } : {}),
        'server-b': 'blocked',
        internet: 'ok',
      });
      // Binding B's port inside its own namespace changes nothing for B's players.
      expect(a.lines).toContain(`bind ${portB} ok`);
      expect(await play('127.0.0.1', portB)).toBe('game B');
      // A's allocation on 0.0.0.0 answers on loopback and on the host's address.
      expect(await play('127.0.0.1', portA)).toBe('game A');
      if (lan) expect(await play(lan, portA)).toBe('game A');
      // Nothing else of A is published: the port it bound beyond its allocation is not on the host.
      expect(await play('127.0.0.1', portB)).toBe('game B');
    });

    it('refuses to start a server on a port a running server holds', { timeout: 15_000 }, async () => {
      const port = await freePort();
      const first = await startGame('first', { default: { ip: '127.0.0.1', port }, mappings: {} });
      await untilLine(first.lines, 'ready', first.exited);
      await expect(startGame('second', { default: { ip: '127.0.0.1', port }, mappings: {} })).rejects.toThrow(
        `Port ${port} is already forwarded to another running server on this node.`,
      );
      expect(await play('127.0.0.1', port)).toBe('game first');
    });

    it('removes the namespace and the forwarded ports when the game ends', { timeout: 15_000 }, async () => {
      const port = await freePort();
      const game = await startGame('short', { default: { ip: '127.0.0.1', port }, mappings: {} });
      await untilLine(game.lines, 'ready', game.exited);
      expect(existsSync(`/run/netns/${namespaceName(game.uuid)}`)).toBe(true);
      game.runtime.kill();
      await game.exited;
      for (let i = 0; i < 100 && existsSync(`/run/netns/${namespaceName(game.uuid)}`); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(existsSync(`/run/netns/${namespaceName(game.uuid)}`)).toBe(false);
      expect(
        execFileSync('nft', ['list', 'map', 'ip', 'aerie', 'published'], { encoding: 'utf8' }),
      ).not.toContain(`. ${port} :`);
    });
  },
);
