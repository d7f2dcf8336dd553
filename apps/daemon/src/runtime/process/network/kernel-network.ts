import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';
import type { GameNetwork } from './game-network';
import {
  type AllowedDestination,
  baseRuleset,
  GAME_SLOTS,
  type GameResolvers,
  gameResolvers,
  HOST_INTERFACE_PREFIX,
  NFT_TABLE,
  namespaceName,
  type PublishedPort,
  publishedPorts,
  type SlotAddresses,
  slotAddresses,
  subnetText,
} from './game-network-plan';
import { PerServerQueue } from './per-server-queue';
import { PortTakenError } from './port-taken-error';
import { runTool, ToolError } from './run-tool';

/** The tools a root daemon builds namespaces with (iproute2, nftables, util-linux). */
export interface KernelTools {
  ip: string;
  nft: string;
  nsenter: string;
  /** Present where Docker (or anything iptables-based) may have set FORWARD's policy to drop. */
  iptables: string | undefined;
}

/**
 * A network namespace per game server, made of the kernel's own parts as Docker makes a bridge network: a veth
 * pair (`aerie<slot>` on the host, `eth0` inside at 10.247.x.2/30), the allocation's ports forwarded to it by
 * nftables DNAT (from other machines and from the node itself, loopback included), outbound traffic masqueraded
 * to the internet, and nothing of the host answering it: not its loopback, not its own addresses, not private
 * networks, not other servers, unless DAEMON_GAME_NETWORK_ALLOW names a destination. A namespace lives for one
 * run (start or install) and goes with it; the ruleset is the daemon's own `ip aerie` table.
 */
export class KernelNetwork implements GameNetwork {
  readonly #tools: KernelTools;
  readonly #allowed: readonly AllowedDestination[];
  readonly #resolvers: GameResolvers;
  /** The resolv.conf a game is shown when the host's names only loopback servers, and where. */
  #resolvConfBind: { source: string; target: string } | undefined;
  /** Each game runs under its own uid already (the root launcher drops to it before bubblewrap). */
  readonly sandboxIdentity = undefined;
  readonly #queue = new PerServerQueue();
  /**
   * This daemon's runs, one file each (`<uuid>` holding the game's address): what its boot-time sweep may end,
   * and never another daemon's (tests run several on one machine).
   */
  readonly #runs: string;

  private constructor(tools: KernelTools, allowed: readonly AllowedDestination[], dataDirectory: string) {
    this.#tools = tools;
    this.#allowed = allowed;
    this.#resolvers = hostResolvers();
    this.#runs = path.join(dataDirectory, 'network', 'runs');
  }

  /**
   * Installs the ruleset and turns forwarding on: the network, or why this host cannot give one (not root, a tool
   * missing, a kernel without nftables).
   */
  static async detect(options: {
    allowed: readonly AllowedDestination[];
    find: (name: string) => string | undefined;
    /** Where the daemon keeps files of its own (the resolv.conf games may be shown). */
    dataDirectory: string;
  }): Promise<KernelNetwork | string> {
    if (process.getuid?.() !== 0) return 'the daemon is not root';
    const ip = options.find('ip');
    const nft = options.find('nft');
    const nsenter = options.find('nsenter');
    if (!ip) return 'iproute2 (ip) is not installed';
    if (!nft) return 'nftables (nft) is not installed';
    if (!nsenter) return 'nsenter (util-linux) is not installed';
    const network = new KernelNetwork(
      { ip, nft, nsenter, iptables: options.find('iptables') },
      options.allowed,
      options.dataDirectory,
    );
    try {
      await network.#installRuleset();
      await network.#writeResolvConf(options.dataDirectory);
    } catch (error) {
      return `nftables refused the ruleset (${error instanceof Error ? error.message : String(error)})`;
    }
    return network;
  }

  describe(): string {
    const allowed = this.#allowed.length === 0 ? '' : `, allowed: ${this.#allowed.length} destination(s)`;
    const dns =
      this.#resolvers.servers.length === 0
        ? ', no DNS (the host names only loopback resolvers)'
        : `, DNS ${this.#resolvers.servers.join(' ')}`;
    return `a network namespace per server (veth + nftables, ${subnetText()}; only its allocations reach it, no host or private address reachable${allowed}${dns})`;
  }

  /** A read-only file to show inside the sandbox instead of the host's resolv.conf, when that names loopback only. */
  get resolvConfBind(): { source: string; target: string } | undefined {
    return this.#resolvConfBind;
  }

  /**
   * Makes the server's namespace for one run and forwards its allocations there; the command prefix that runs
   * what follows inside it.
   * @throws PortTakenError when another running server holds one of the ports
   */
  enter(uuid: string, allocations: RuntimeAllocations | undefined): Promise<string[]> {
    return this.#queue.run(uuid, async () => {
      await this.#remove(uuid);
      const name = namespaceName(uuid);
      await runTool(this.#tools.ip, ['netns', 'add', name]);
      try {
        const slot = await this.#linkPair(name);
        await mkdir(this.#runs, { recursive: true, mode: 0o700 });
        await writeFile(path.join(this.#runs, uuid), slot.gameAddress);
        await this.#configure(name, slot);
        await this.#publish(slot, publishedPorts(allocations));
        await this.#allowThroughDockerFirewall();
      } catch (error) {
        await this.#remove(uuid).catch(() => {});
        throw error;
      }
      return [this.#tools.nsenter, `--net=/run/netns/${name}`, '--'];
    });
  }

  /** Ends the run's network: its forwarded ports and its namespace (the veth goes with it). */
  release(uuid: string): Promise<void> {
    return this.#queue.run(uuid, () => this.#remove(uuid));
  }

  async sweep(running: ReadonlySet<string>): Promise<number> {
    const leftovers = (await readdir(this.#runs).catch(() => [] as string[])).filter(
      (uuid) => !running.has(uuid),
    );
    for (const uuid of leftovers) await this.release(uuid);
    return leftovers.length;
  }

  async #installRuleset(): Promise<void> {
    await runTool(
      this.#tools.nft,
      ['-f', '-'],
      baseRuleset({ allowed: this.#allowed, resolvers: this.#resolvers.servers }),
    );
    await writeFile('/proc/sys/net/ipv4/ip_forward', '1');
  }

  async #writeResolvConf(dataDirectory: string): Promise<void> {
    const override = this.#resolvers.override;
    if (!override) return;
    const directory = path.join(dataDirectory, 'network');
    await mkdir(directory, { recursive: true, mode: 0o755 });
    const source = path.join(directory, 'resolv.conf');
    await writeFile(source, override.text, { mode: 0o644 });
    this.#resolvConfBind = { source, target: override.target };
  }

  /** A free slot, taken by creating its host interface: the kernel refuses a name twice, so two daemons never share one. */
  async #linkPair(namespace: string): Promise<SlotAddresses> {
    const used = new Set(
      (await this.#interfaces()).map((name) => Number(name.slice(HOST_INTERFACE_PREFIX.length))),
    );
    for (let slot = 0; slot < GAME_SLOTS; slot++) {
      if (used.has(slot)) continue;
      const addresses = slotAddresses(slot);
      try {
        await runTool(this.#tools.ip, [
          'link',
          'add',
          addresses.hostInterface,
          'type',
          'veth',
          'peer',
          'name',
          'eth0',
          'netns',
          namespace,
        ]);
        return addresses;
      } catch (error) {
        if (error instanceof ToolError && /exists/i.test(error.stderr)) continue;
        throw error;
      }
    }
    throw new Error(`Every one of the ${GAME_SLOTS} game network slots is in use on this node.`);
  }

  async #configure(namespace: string, slot: SlotAddresses): Promise<void> {
    const { ip } = this.#tools;
    await runTool(
      ip,
      ['-batch', '-'],
      [
        `addr add ${slot.hostAddress}/30 dev ${slot.hostInterface}`,
        `link set ${slot.hostInterface} up`,
        '',
      ].join('\n'),
    );
    // Players on the node itself connect from 127.0.0.1; their packets may leave through this veth (masqueraded).
    await writeFile(`/proc/sys/net/ipv4/conf/${slot.hostInterface}/route_localnet`, '1');
    await runTool(
      ip,
      ['-n', namespace, '-batch', '-'],
      [
        'link set lo up',
        `addr add ${slot.gameAddress}/30 dev eth0`,
        'link set eth0 up',
        `route add default via ${slot.hostAddress}`,
        '',
      ].join('\n'),
    );
  }

  /** Forwards the ports to the game, after making sure no live server already has one of them. */
  async #publish(slot: SlotAddresses, ports: readonly PublishedPort[]): Promise<void> {
    if (ports.length === 0) return;
    const current = await this.#elements();
    const live = new Set((await this.#interfaces()).map((name) => gameAddressOf(name)));
    const stale: PublishedPort[] = [];
    for (const port of ports) {
      const holder = current.get(`${port.map} ${port.key}`);
      if (holder === undefined || holder === slot.gameAddress) continue;
      if (live.has(holder)) {
        throw new PortTakenError(
          `Port ${port.key.split(' . ').at(-1)} is already forwarded to another running server on this node.`,
        );
      }
      stale.push(port);
    }
    const t = `ip ${NFT_TABLE}`;
    const script = [
      ...stale.map((port) => `delete element ${t} ${port.map} { ${port.key} }`),
      ...ports.map((port) => `add element ${t} ${port.map} { ${port.key} : ${slot.gameAddress} }`),
      '',
    ].join('\n');
    await runTool(this.#tools.nft, ['-f', '-'], script);
  }

  async #remove(uuid: string): Promise<void> {
    const name = namespaceName(uuid);
    const record = path.join(this.#runs, uuid);
    const recorded = await readFile(record, 'utf8').catch(() => undefined);
    const exists = existsSync(`/run/netns/${name}`);
    if (!exists && recorded === undefined) return;
    // The namespace's own address, or (it went behind the daemon's back) the one recorded when it was made.
    let address = exists ? await this.#gameAddressIn(name) : recorded?.trim();
    // A recorded address another run's namespace holds now (its slot was free again) is that run's to keep.
    if (!exists && address) {
      const live = new Set((await this.#interfaces()).map((link) => gameAddressOf(link)));
      if (live.has(address)) address = undefined;
    }
    if (address) {
      const t = `ip ${NFT_TABLE}`;
      const mine = [...(await this.#elements())].filter(([, value]) => value === address);
      if (mine.length > 0) {
        const script = mine.map(([entry]) => {
          const [map, ...key] = entry.split(' ');
          return `delete element ${t} ${map} { ${key.join(' ')} }`;
        });
        await runTool(this.#tools.nft, ['-f', '-'], `${script.join('\n')}\n`).catch(() => {});
      }
    }
    if (exists) await runTool(this.#tools.ip, ['netns', 'delete', name]).catch(() => {});
    await rm(record, { force: true });
  }

  async #gameAddressIn(namespace: string): Promise<string | undefined> {
    const text = await runTool(this.#tools.ip, [
      '-n',
      namespace,
      '-j',
      '-4',
      'addr',
      'show',
      'dev',
      'eth0',
    ]).catch(() => '[]');
    const parsed = JSON.parse(text) as { addr_info?: { local?: string }[] }[];
    return parsed[0]?.addr_info?.[0]?.local;
  }

  /** `map key` → the game address it forwards to, for both maps. */
  async #elements(): Promise<Map<string, string>> {
    const elements = new Map<string, string>();
    for (const map of ['published', 'published_any'] as const) {
      const text = await runTool(this.#tools.nft, ['-j', 'list', 'map', 'ip', NFT_TABLE, map]);
      const parsed = JSON.parse(text) as { nftables: { map?: { elem?: [unknown, string][] } }[] };
      for (const item of parsed.nftables) {
        for (const [key, value] of item.map?.elem ?? []) elements.set(`${map} ${keyText(key)}`, value);
      }
    }
    return elements;
  }

  async #interfaces(): Promise<string[]> {
    const text = await runTool(this.#tools.ip, ['-j', 'link', 'show']);
    const links = JSON.parse(text) as { ifname: string }[];
    return links
      .map((link) => link.ifname)
      .filter((name) => new RegExp(`^${HOST_INTERFACE_PREFIX}\\d+$`).test(name));
  }

  /**
   * Docker sets the FORWARD policy of iptables to drop; its DOCKER-USER chain is where others' accepts go. Games'
   * traffic is still filtered by this daemon's own table, which a packet must pass as well.
   */
  async #allowThroughDockerFirewall(): Promise<void> {
    const iptables = this.#tools.iptables;
    if (!iptables) return;
    for (const direction of ['-i', '-o']) {
      const rule = ['DOCKER-USER', direction, `${HOST_INTERFACE_PREFIX}+`, '-j', 'ACCEPT'];
      const present = await runTool(iptables, ['-w', '-C', ...rule]).then(
        () => true,
        () => false,
      );
      if (!present) await runTool(iptables, ['-w', '-I', ...rule]).catch(() => {});
    }
  }
}

/** The host's resolver configuration, read once at start (systemd-resolved's upstream list as the fallback). */
function hostResolvers(): GameResolvers {
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  let link: string | undefined;
  try {
    if (lstatSync('/etc/resolv.conf').isSymbolicLink()) {
      link = path.resolve('/etc', readlinkSync('/etc/resolv.conf'));
    }
  } catch {
    // No resolv.conf at all: no DNS for anyone here.
  }
  return gameResolvers(read('/etc/resolv.conf'), link, read('/run/systemd/resolve/resolv.conf'));
}

/** An nft JSON key (`{concat: ["127.0.0.1", "tcp", 25565]}`) as the text `127.0.0.1 . tcp . 25565`. */
function keyText(key: unknown): string {
  if (typeof key === 'object' && key !== null && 'concat' in key) {
    return (key as { concat: unknown[] }).concat.map(String).join(' . ');
  }
  return String(key);
}

function gameAddressOf(hostInterface: string): string {
  return slotAddresses(Number(hostInterface.slice(HOST_INTERFACE_PREFIX.length))).gameAddress;
}
