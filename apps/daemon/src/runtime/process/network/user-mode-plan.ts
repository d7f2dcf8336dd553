import { isIPv4 } from 'node:net';
import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';
import { type AllowedDestination, BLOCKED_DESTINATIONS } from './game-network-plan';

/**
 * slirp4netns's fixed numbering (`--configure`): the game is 10.0.2.100 on tap0, the gateway 10.0.2.2 (the host,
 * reached through slirp4netns's own sockets) and its DNS forwarder 10.0.2.3.
 */
export const SLIRP = {
  interface: 'tap0',
  gameAddress: '10.0.2.100',
  gateway: '10.0.2.2',
  dns: '10.0.2.3',
  /** slirp4netns's documented best-throughput MTU (rootless Podman's default). */
  mtu: 65520,
} as const;

/** The nftables table inside a game's user-mode namespace. */
export const USER_MODE_TABLE = 'aerie';

/** One port slirp4netns publishes on the host: `add_hostfwd` of its API. */
export interface HostForward {
  proto: 'tcp' | 'udp';
  /** The allocation's address on the host (0.0.0.0: all of them). */
  hostAddress: string;
  port: number;
}

/** The allocation's ports as slirp4netns forwards, tcp and udp each; IPv6 ones are left out (the namespace is IPv4). */
export function hostForwards(allocations: RuntimeAllocations | undefined): HostForward[] {
  if (!allocations) return [];
  const forwards = new Map<string, HostForward>();
  const add = (ip: string, port: number) => {
    if (!isIPv4(ip) || !Number.isInteger(port) || port < 1 || port > 65535) return;
    for (const proto of ['tcp', 'udp'] as const) {
      forwards.set(`${proto} ${ip} ${port}`, { proto, hostAddress: ip, port });
    }
  };
  add(allocations.default.ip, allocations.default.port);
  for (const [ip, ports] of Object.entries(allocations.mappings)) for (const port of ports) add(ip, port);
  return [...forwards.values()];
}

/**
 * The game's egress filter, installed inside its namespace by the daemon (root of that user namespace; the game,
 * in bubblewrap's nested one, cannot change it). slirp4netns opens the game's connections from the daemon's own
 * sockets, so without it a game reaches whatever the daemon can: the panel on the node's LAN address, a database,
 * other servers. Replies to players (who arrive from the gateway) and the game's own loopback pass; new
 * connections to the host, private networks and the node's own addresses do not, but for slirp4netns's DNS and
 * the destinations an admin allowed.
 * @param ownAddresses the node's IPv4 addresses (public ones too: slirp4netns would reach them from the host)
 */
export function egressRuleset(options: {
  allowed: readonly AllowedDestination[];
  ownAddresses: readonly string[];
  /** The host's own (non-loopback) resolvers: a game shown the host's resolv.conf asks slirp4netns's instead. */
  resolvers?: readonly string[];
}): string {
  const t = `ip ${USER_MODE_TABLE}`;
  // An address inside a blocked network is left out: nft refuses overlapping intervals in one set.
  const own = options.ownAddresses.filter(
    (address) => isIPv4(address) && !BLOCKED_DESTINATIONS.some((network) => contains(network, address)),
  );
  const blocked = [...BLOCKED_DESTINATIONS, ...new Set(own)];
  const allowed = options.allowed.map((destination) =>
    destination.port === undefined
      ? `${destination.network} . 0-65535`
      : `${destination.network} . ${destination.port}`,
  );
  const lines = [
    `add table ${t}`,
    `add set ${t} allowed { type ipv4_addr . inet_service ; flags interval ; }`,
    `add chain ${t} output { type filter hook output priority filter ; policy accept ; }`,
    `add rule ${t} output oifname "lo" accept`,
    `add rule ${t} output ct state established,related accept`,
    `add rule ${t} output ip daddr . th dport @allowed accept`,
    `add rule ${t} output ip daddr ${SLIRP.dns} meta l4proto { tcp, udp } th dport 53 accept`,
    `add rule ${t} output ip daddr { ${blocked.join(', ')} } drop`,
  ];
  const resolvers = (options.resolvers ?? []).filter((address) => isIPv4(address));
  if (resolvers.length > 0) {
    // The unshare fallback cannot show the game another resolv.conf: its questions to the host's go to slirp4netns.
    lines.push(
      `add chain ${t} resolve { type nat hook output priority -100 ; }`,
      `add rule ${t} resolve ip daddr { ${[...new Set(resolvers)].join(', ')} } meta l4proto { tcp, udp } th dport 53 dnat to ${SLIRP.dns}`,
    );
  }
  if (allowed.length > 0) lines.push(`add element ${t} allowed { ${allowed.join(', ')} }`);
  return `${lines.join('\n')}\n`;
}

/**
 * The resolv.conf a game in a user-mode namespace is shown: slirp4netns's forwarder, which asks the host's own
 * resolvers (loopback ones included) from the daemon's side; the host's search and options lines are kept.
 */
export function userModeResolvConf(hostResolvConf: string): string {
  const kept = hostResolvConf.split('\n').filter((line) => /^\s*(search|domain|options)\s/.test(line));
  return `${[`nameserver ${SLIRP.dns}`, ...kept].join('\n')}\n`;
}

function contains(network: string, address: string): boolean {
  const [base = '', prefix = '32'] = network.split('/');
  const size = 2 ** (32 - Number(prefix));
  const start = ipToNumber(base);
  const value = ipToNumber(address);
  return value >= start && value < start + size;
}

function ipToNumber(ip: string): number {
  return ip.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}
