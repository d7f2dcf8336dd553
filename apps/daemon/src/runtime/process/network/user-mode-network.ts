import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, lstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';
import type { GameNetwork } from './game-network';
import { type AllowedDestination, reachableResolvers } from './game-network-plan';
import { PerServerQueue } from './per-server-queue';
import { PortTakenError } from './port-taken-error';
import { runTool } from './run-tool';
import { slirpRequest } from './slirp-api';
import { egressRuleset, hostForwards, SLIRP, userModeResolvConf } from './user-mode-plan';
import { endRun, processMark, runFiles, type UserModeRun, writeRun } from './user-mode-runs';

/** The tools an unprivileged daemon builds namespaces with. */
export interface UserModeTools {
  slirp4netns: string;
  nsenter: string;
  unshare: string;
  nft: string;
}

/**
 * A network namespace per game server without root, as rootless Podman makes one: a keeper process holds a new
 * user + network namespace (the daemon's uid is root there), slirp4netns gives it a tap device whose traffic it
 * carries through the daemon's own sockets, the allocation's ports are published with slirp4netns's
 * `add_hostfwd`, and an nftables filter inside the namespace keeps the game from the host, private networks and
 * the node's own addresses. Keeper and slirp4netns run detached, like the game's holder, so a daemon crash leaves
 * running games their network; each run's record under the data directory lets a later daemon end them.
 */
export class UserModeNetwork implements GameNetwork {
  readonly #tools: UserModeTools;
  readonly #allowed: readonly AllowedDestination[];
  /** Where runs' records, slirp4netns's API sockets and logs live (the daemon's own, 0700). */
  readonly #directory: string;
  readonly resolvConfBind: { source: string; target: string };
  readonly sandboxIdentity = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  readonly #queue = new PerServerQueue();

  private constructor(
    tools: UserModeTools,
    allowed: readonly AllowedDestination[],
    directory: string,
    resolvConf: { source: string; target: string },
  ) {
    this.#tools = tools;
    this.#allowed = allowed;
    this.#directory = directory;
    this.resolvConfBind = resolvConf;
  }

  /** The network, tried for real with one namespace made and ended; or why this host cannot give one. */
  static async detect(options: {
    allowed: readonly AllowedDestination[];
    find: (name: string) => string | undefined;
    dataDirectory: string;
  }): Promise<UserModeNetwork | string> {
    const slirp4netns = options.find('slirp4netns');
    const nsenter = options.find('nsenter');
    const unshare = options.find('unshare');
    const nft = options.find('nft');
    if (!slirp4netns) return 'the daemon is not root, and slirp4netns is not installed';
    if (!nsenter || !unshare)
      return 'the daemon is not root, and nsenter/unshare (util-linux) are not installed';
    if (!nft) return 'the daemon is not root, and nftables (nft) is not installed';
    try {
      closeSync(openSync('/dev/net/tun', constants.O_RDWR));
    } catch {
      return 'the daemon is not root, and /dev/net/tun is not usable by the daemon user (Debian ships it 0666)';
    }
    const directory = path.join(options.dataDirectory, 'network', 'user-mode');
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const source = path.join(directory, 'resolv.conf');
    await writeFile(source, userModeResolvConf(readText('/etc/resolv.conf')), { mode: 0o644 });
    const network = new UserModeNetwork({ slirp4netns, nsenter, unshare, nft }, options.allowed, directory, {
      source,
      target: resolvConfTarget(),
    });
    const trial = `trial-${process.pid}`;
    try {
      await network.enter(trial, undefined);
    } catch (error) {
      return `the daemon is not root, and slirp4netns could not make a namespace here (${error instanceof Error ? error.message : String(error)})`;
    } finally {
      await network.release(trial);
    }
    return network;
  }

  describe(): string {
    const allowed = this.#allowed.length === 0 ? '' : `, allowed: ${this.#allowed.length} destination(s)`;
    return `a user-mode network namespace per server (slirp4netns; only its allocations reach it, no host or private address reachable${allowed}, DNS through slirp4netns)`;
  }

  enter(uuid: string, allocations: RuntimeAllocations | undefined): Promise<string[]> {
    return this.#queue.run(uuid, async () => {
      await endRun(this.#directory, uuid);
      try {
        const keeper = await this.#startKeeper();
        const run: UserModeRun = { keeper };
        await writeRun(this.#directory, uuid, run);
        const join = [
          this.#tools.nsenter,
          '--user',
          '--net',
          `--target=${keeper.pid}`,
          '--preserve-credentials',
        ];
        const [nsenter, ...joinArgs] = join as [string, ...string[]];
        await runTool(nsenter, [...joinArgs, '--', this.#tools.nft, '-f', '-'], this.#ruleset());
        run.slirp = await this.#startSlirp(uuid, keeper.pid);
        await writeRun(this.#directory, uuid, run);
        await this.#publish(uuid, allocations);
        return [...join, '--'];
      } catch (error) {
        await endRun(this.#directory, uuid);
        throw error;
      }
    });
  }

  release(uuid: string): Promise<void> {
    return this.#queue.run(uuid, () => endRun(this.#directory, uuid));
  }

  async sweep(running: ReadonlySet<string>): Promise<number> {
    const names = await readdir(this.#directory).catch(() => [] as string[]);
    const leftovers = names
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter((uuid) => !running.has(uuid));
    for (const uuid of leftovers) await this.release(uuid);
    return leftovers.length;
  }

  /** The filter, with the node's addresses as they are now (an address added later is known at the next start). */
  #ruleset(): string {
    return egressRuleset({
      allowed: this.#allowed,
      ownAddresses: nodeAddresses(),
      resolvers: reachableResolvers(readText('/etc/resolv.conf')),
    });
  }

  /** A process alone in a new user + network namespace, in a process group of its own that outlives the daemon. */
  async #startKeeper() {
    const child = spawn(
      this.#tools.unshare,
      [
        '--user',
        '--map-root-user',
        '--net',
        '--',
        '/bin/sh',
        '-c',
        'echo ready; exec sleep infinity </dev/null >/dev/null 2>&1',
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } },
    );
    await untilReady(child.stdout, child.stderr, child, 'the namespace keeper (unshare)');
    child.unref();
    const mark = child.pid === undefined ? undefined : processMark(child.pid);
    if (!mark) throw new Error('the namespace keeper ended as it started');
    return mark;
  }

  /** slirp4netns on the keeper's namespace, ready (tap0 configured) once it says so on its ready pipe. */
  async #startSlirp(uuid: string, keeper: number) {
    const files = runFiles(this.#directory, uuid);
    const log = await open(files.log, 'w', 0o600);
    try {
      const child = spawn(
        this.#tools.slirp4netns,
        [
          '--configure',
          `--mtu=${SLIRP.mtu}`,
          '--disable-host-loopback',
          '--enable-sandbox',
          '--enable-seccomp',
          '--api-socket',
          files.socket,
          '--ready-fd=3',
          String(keeper),
          SLIRP.interface,
        ],
        { detached: true, stdio: ['ignore', log.fd, log.fd, 'pipe'], env: {} },
      );
      const ready = child.stdio[3] as Readable;
      await untilReady(ready, undefined, child, 'slirp4netns', files.log);
      child.unref();
      const mark = child.pid === undefined ? undefined : processMark(child.pid);
      if (!mark) throw new Error('slirp4netns ended as it started');
      return mark;
    } finally {
      await log.close();
    }
  }

  /** Publishes each port on the host; one held elsewhere fails the start. */
  async #publish(uuid: string, allocations: RuntimeAllocations | undefined): Promise<void> {
    const { socket } = runFiles(this.#directory, uuid);
    for (const forward of hostForwards(allocations)) {
      const reply = await slirpRequest(socket, {
        execute: 'add_hostfwd',
        arguments: {
          proto: forward.proto,
          host_addr: forward.hostAddress,
          host_port: forward.port,
          guest_addr: SLIRP.gameAddress,
          guest_port: forward.port,
        },
      });
      if (
        reply.error &&
        forward.hostAddress !== '0.0.0.0' &&
        !nodeAddresses().includes(forward.hostAddress)
      ) {
        throw new Error(
          `Port ${forward.port} cannot be published on ${forward.hostAddress}: that address is not one of this node's.`,
        );
      }
      if (reply.error) {
        throw new PortTakenError(
          `Port ${forward.port} (${forward.proto}) cannot be published on ${forward.hostAddress}: another running server or program on this node holds it.`,
        );
      }
    }
  }
}

/**
 * Resolves once `ready` yields its first bytes (then stops reading it); rejects with what the process said when
 * it ends first.
 */
function untilReady(
  ready: Readable,
  stderr: Readable | undefined,
  child: ReturnType<typeof spawn>,
  name: string,
  logFile?: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = '';
    stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
    });
    const fail = (reason: string) => {
      const text = (logFile ? readText(logFile) : said).trim().split('\n').slice(-2).join(' ');
      reject(new Error(`${name} ${reason}${text ? `: ${text}` : ''}`));
    };
    child.once('error', (error) => fail(`could not run (${error.message})`));
    child.once('exit', (code) => fail(`exited (${code})`));
    ready.once('data', () => {
      child.removeAllListeners('exit');
      ready.destroy();
      stderr?.destroy();
      resolve();
    });
  });
}

/** The node's IPv4 addresses as they are now. */
function nodeAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === 'IPv4')
    .map((address) => address.address);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Where the game looks for its resolver list: /etc/resolv.conf, or the file that symlink leads to. */
function resolvConfTarget(): string {
  try {
    if (lstatSync('/etc/resolv.conf').isSymbolicLink()) {
      const target = path.resolve('/etc', readlinkSync('/etc/resolv.conf'));
      if (existsSync(target)) return target;
    }
  } catch {
    // No resolv.conf at all: the game is shown slirp4netns's at the usual place.
  }
  return '/etc/resolv.conf';
}
