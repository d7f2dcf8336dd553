import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A network an admin opened to pulls (DAEMON_PULL_ALLOW): an address and its prefix length. */
export type AllowedNetwork = readonly [Address, number];

/** IPv6 addresses outside 2000::/3 (global unicast) are never a public web server. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Reads DAEMON_PULL_ALLOW: comma-separated IPv4 or IPv6 addresses or CIDR networks
 * (`127.0.0.1/32,10.0.0.0/8,fd00::/8`); a bare address is that address alone.
 * @throws Error naming the entry that is not one
 */
export function parseAllowedNetworks(text: string): AllowedNetwork[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes('/')) {
          const [network, bits] = ipaddr.parseCIDR(entry);
          return [unmapped(network), network.kind() === 'ipv6' && isMapped(network) ? bits - 96 : bits];
        }
        const address = unmapped(ipaddr.parse(entry));
        return [address, address.kind() === 'ipv4' ? 32 : 128];
      } catch {
        throw new Error(`"${entry}" is not an IP address or network such as 10.0.0.0/8 or fd00::/8`);
      }
    });
}

export interface DestinationPolicy {
  allow: readonly AllowedNetwork[];
  /** The node's own addresses, normalized (ownAddresses()); refused even when public. */
  own: ReadonlySet<string>;
}

/** Every address of this machine's interfaces, normalized as `refusalOf` compares them. */
export function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) {
      const address = ipaddr.parse(entry.address.split('%')[0] as string);
      own.add(unmapped(address).toNormalizedString());
    }
  }
  return own;
}

/**
 * Why the daemon will not connect to `address` (ipaddr.js's range name such as `loopback`, `private`, `linkLocal`; `own` for the node's address), or
 * undefined when it may: a public unicast address that is not the node's, or one inside an allowed network.
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries.
 */
export function refusalOf(text: string, policy: DestinationPolicy): string | undefined {
  if (!ipaddr.isValid(text)) return 'invalid';
  const address = unmapped(ipaddr.parse(text));
  if (
    policy.allow.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits))
  )
    return undefined;
  const range = address.range();
  if (range !== 'unicast') return range;
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return 'reserved';
  if (policy.own.has(address.toNormalizedString())) return 'own';
  return undefined;
}

function isMapped(address: Address): boolean {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress();
}

function unmapped(address: Address): Address {
  return isMapped(address) ? (address as ipaddr.IPv6).toIPv4Address() : address;
}
