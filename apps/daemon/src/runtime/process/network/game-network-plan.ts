import { isIPv4 } from 'node:net';
import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';

/**
 * The addresses game servers' namespaces are numbered from: one /30 per running server (the host's end .1, the
 * game's .2), 16,384 servers. A range hosts rarely route (Docker takes 172.17/16, Pterodactyl 172.18/16).
 */
export const GAME_SUBNET = { base: ipToNumber('10.247.0.0'), prefix: 16 } as const;
export const GAME_SLOTS = 2 ** (32 - GAME_SUBNET.prefix) / 4;

/** Host-side interfaces are `aerie<slot>`: the kernel's names cap at 15 characters, and the rules match `aerie*`. */
export const HOST_INTERFACE_PREFIX = 'aerie';
/** The nftables table every rule of the daemon lives in (its own, so nothing else on the host is touched). */
export const NFT_TABLE = 'aerie';

/**
 * Where a game may never connect unless an admin allows it: the host's loopback, private and shared networks
 * (RFC 1918, carrier-grade NAT, link-local: cloud metadata at 169.254.169.254), and multicast/reserved space.
 */
export const BLOCKED_DESTINATIONS = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/3',
] as const;

export interface SlotAddresses {
  slot: number;
  hostInterface: string;
  /** The host's end of the veth pair: the game's gateway. */
  hostAddress: string;
  /** The game's own address, which its allocations are forwarded to. */
  gameAddress: string;
}

export function slotAddresses(slot: number): SlotAddresses {
  const block = GAME_SUBNET.base + slot * 4;
  return {
    slot,
    hostInterface: `${HOST_INTERFACE_PREFIX}${slot}`,
    hostAddress: numberToIp(block + 1),
    gameAddress: numberToIp(block + 2),
  };
}

/** The name of a server's network namespace under /run/netns. */
export const namespaceName = (uuid: string) => `aerie-${uuid}`;

export function subnetText(): string {
  return `${numberToIp(GAME_SUBNET.base)}/${GAME_SUBNET.prefix}`;
}

/** One destination an admin lets games reach: an IPv4 address or network, and optionally one port. */
export interface AllowedDestination {
  network: string;
  port?: number;
}

/**
 * Reads DAEMON_GAME_NETWORK_ALLOW: comma-separated `address[/prefix][:port]` (`10.0.0.5:3306`, `192.168.1.0/24`).
 * @throws Error naming the entry that is not one
 */
export function parseAllowedDestinations(text: string): AllowedDestination[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    const match = /^(\d{1,3}(?:\.\d{1,3}){3})(?:\/(\d{1,2}))?(?::(\d{1,5}))?$/.exec(entry);
    const prefix = match?.[2] === undefined ? 32 : Number(match[2]);
    const port = match?.[3] === undefined ? undefined : Number(match[3]);
    if (
      !match ||
      !isIPv4(match[1] as string) ||
      prefix > 32 ||
      (port !== undefined && (port < 1 || port > 65535))
    )
      throw new Error(`"${entry}" is not an IPv4 address or network with an optional port (10.0.0.5:3306)`);
    return { network: `${match[1]}/${prefix}`, ...(port === undefined ? {} : { port }) };
  });
}

/**
 * The daemon's whole ruleset but for the per-server elements, as one `nft -f` transaction: tables, maps and
 * chains are added if missing (elements of running servers survive a daemon restart), chains are flushed and
 * refilled, so every daemon start leaves exactly these rules.
 */
export function baseRuleset(options: {
  allowed: readonly AllowedDestination[];
  resolvers: readonly string[];
}): string {
  const t = `ip ${NFT_TABLE}`;
  const games = `iifname "${HOST_INTERFACE_PREFIX}*"`;
  const lines = [
    `add table ${t}`,
    // (address the player used, protocol, port) → the game's address; the port stays the allocation's.
    `add map ${t} published { type ipv4_addr . inet_proto . inet_service : ipv4_addr ; }`,
    // Allocations on 0.0.0.0: every address of the host.
    `add map ${t} published_any { type inet_proto . inet_service : ipv4_addr ; }`,
    `add set ${t} allowed { type ipv4_addr . inet_service ; flags interval ; }`,
    `add set ${t} resolvers { type ipv4_addr ; }`,
    `add chain ${t} publish`,
    `add chain ${t} prerouting { type nat hook prerouting priority dstnat ; }`,
    `add chain ${t} output { type nat hook output priority -100 ; }`,
    `add chain ${t} postrouting { type nat hook postrouting priority srcnat ; }`,
    `add chain ${t} input { type filter hook input priority filter ; }`,
    `add chain ${t} forward { type filter hook forward priority filter ; }`,
    ...['publish', 'prerouting', 'output', 'postrouting', 'input', 'forward'].map(
      (c) => `flush chain ${t} ${c}`,
    ),
    `flush set ${t} allowed`,
    `flush set ${t} resolvers`,
    `add rule ${t} publish meta l4proto { tcp, udp } dnat ip to ip daddr . meta l4proto . th dport map @published`,
    `add rule ${t} publish meta l4proto { tcp, udp } dnat ip to meta l4proto . th dport map @published_any`,
    // A game asking for the host's loopback through its gateway (route_localnet is on for the veth): never.
    `add rule ${t} prerouting ${games} ip daddr 127.0.0.0/8 drop`,
    `add rule ${t} prerouting fib daddr type local jump publish`,
    // Players on the node itself (127.0.0.1:port, the host's own address).
    `add rule ${t} output fib daddr type local jump publish`,
    // A loopback client's source cannot leave the host: it becomes the host's end of the veth.
    `add rule ${t} postrouting oifname "${HOST_INTERFACE_PREFIX}*" ip saddr 127.0.0.0/8 masquerade`,
    `add rule ${t} postrouting ip saddr ${subnetText()} oifname != "${HOST_INTERFACE_PREFIX}*" masquerade`,
    // Nothing on the host answers a game: not the panel, the daemon, SSH, a database or Redis, on any address.
    `add rule ${t} input ${games} ct state established,related accept`,
    `add rule ${t} input ${games} ip daddr . th dport @allowed accept`,
    `add rule ${t} input ${games} drop`,
    `add rule ${t} forward ct state established,related accept`,
    // Servers never reach each other directly (players' traffic to a game arrives from outside, not from a veth).
    `add rule ${t} forward ${games} oifname "${HOST_INTERFACE_PREFIX}*" drop`,
    `add rule ${t} forward ${games} ip daddr . th dport @allowed accept`,
    `add rule ${t} forward ${games} ip daddr @resolvers th dport 53 accept`,
    `add rule ${t} forward ${games} ip daddr { ${BLOCKED_DESTINATIONS.join(', ')} } drop`,
  ];
  const allowed = options.allowed.map((destination) =>
    destination.port === undefined
      ? `${destination.network} . 0-65535`
      : `${destination.network} . ${destination.port}`,
  );
  if (allowed.length > 0) lines.push(`add element ${t} allowed { ${allowed.join(', ')} }`);
  if (options.resolvers.length > 0)
    lines.push(`add element ${t} resolvers { ${options.resolvers.join(', ')} }`);
  return `${lines.join('\n')}\n`;
}

/** One forwarded port: the map it lives in and its key there. */
export interface PublishedPort {
  map: 'published' | 'published_any';
  key: string;
}

/**
 * The allocation ports to forward to a game, tcp and udp each, as map keys. IPv6 allocations are left out: the
 * namespace has IPv4 only.
 */
export function publishedPorts(allocations: RuntimeAllocations | undefined): PublishedPort[] {
  if (!allocations) return [];
  const pairs = new Map<string, PublishedPort>();
  const add = (ip: string, port: number) => {
    if (!Number.isInteger(port) || port < 1 || port > 65535) return;
    for (const proto of ['tcp', 'udp']) {
      const port_ =
        ip === '0.0.0.0' ? { map: 'published_any' as const, key: `${proto} . ${port}` } : undefined;
      const published =
        port_ ?? (isIPv4(ip) ? { map: 'published' as const, key: `${ip} . ${proto} . ${port}` } : undefined);
      if (published) pairs.set(`${published.map} ${published.key}`, published);
    }
  };
  add(allocations.default.ip, allocations.default.port);
  for (const [ip, ports] of Object.entries(allocations.mappings)) for (const port of ports) add(ip, port);
  return [...pairs.values()];
}

/** The nameservers of a resolv.conf text that a game can reach through its gateway (loopback ones it cannot). */
export function reachableResolvers(resolvConf: string): string[] {
  const servers = [...resolvConf.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((match) => match[1] as string);
  return [...new Set(servers.filter((server) => isIPv4(server) && !server.startsWith('127.')))];
}

/** How a game in a namespace resolves names: the servers it may ask, and a resolv.conf to show it if the host's won't do. */
export interface GameResolvers {
  servers: string[];
  /** A resolv.conf naming `servers`, shown at `target` inside the sandbox (where the host's /etc/resolv.conf leads). */
  override?: { text: string; target: string };
}

/**
 * The host's resolvers as a game sees them. A host whose resolv.conf names only loopback servers (systemd-resolved's
 * 127.0.0.53, a local dnsmasq) cannot be asked from a namespace, so the game is shown the servers those forward to
 * (systemd-resolved's own list), as Docker does; with none known, it has no DNS.
 * @param etcLink where /etc/resolv.conf points when it is a symlink (absolute), else undefined
 */
export function gameResolvers(
  etcText: string,
  etcLink: string | undefined,
  upstreamText: string,
): GameResolvers {
  const direct = reachableResolvers(etcText);
  if (direct.length > 0) return { servers: direct };
  const upstream = reachableResolvers(upstreamText);
  if (upstream.length === 0) return { servers: [] };
  const kept = etcText.split('\n').filter((line) => /^\s*(search|domain|options)\s/.test(line));
  const text = `${[...upstream.map((server) => `nameserver ${server}`), ...kept].join('\n')}\n`;
  return { servers: upstream, override: { text, target: etcLink ?? '/etc/resolv.conf' } };
}

function ipToNumber(ip: string): number {
  return ip.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}

function numberToIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
