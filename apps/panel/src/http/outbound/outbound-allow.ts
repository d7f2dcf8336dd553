import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * What AERIE_OUTBOUND_ALLOW opens to the panel's own outbound requests (an identity provider's discovery and
 * token calls, later webhooks) although loopback, private, link-local or otherwise not public: networks
 * (`127.0.0.1/32`, `fd00::/8`, a bare address) and host names (`idp.internal`, whatever they resolve to).
 */
export interface OutboundAllow {
  networks: readonly (readonly [Address, number])[];
  hosts: readonly string[];
}

export const NO_OUTBOUND_ALLOW: OutboundAllow = { networks: [], hosts: [] };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is the IPv4 address it carries. */
export function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/**
 * Reads AERIE_OUTBOUND_ALLOW: comma-separated addresses, CIDR networks or host names.
 * @throws Error naming the entry that is none of these
 */
export function parseOutboundAllow(text: string | undefined): OutboundAllow {
  const networks: (readonly [Address, number])[] = [];
  const hosts: string[] = [];
  for (const entry of (text ?? '').split(',').map((item) => item.trim().toLowerCase())) {
    if (!entry) continue;
    try {
      if (entry.includes('/')) {
        const [network, bits] = ipaddr.parseCIDR(entry);
        const mapped = network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress();
        networks.push([unmapped(network), mapped ? bits - 96 : bits]);
        continue;
      }
      if (ipaddr.isValid(entry)) {
        const address = unmapped(ipaddr.parse(entry));
        networks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
        continue;
      }
    } catch {
      // Reported below.
    }
    if (!HOST_NAME.test(entry)) {
      throw new Error(`"${entry}" is not an IP address, a network such as 10.0.0.0/8, or a host name`);
    }
    hosts.push(entry);
  }
  return { networks, hosts };
}
