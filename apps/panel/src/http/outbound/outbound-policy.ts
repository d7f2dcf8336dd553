import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { type OutboundAllow, unmapped } from './outbound-allow';

/** IPv6 outside 2000::/3 (global unicast) is never a public server. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** A host name as URLs carry it: `[::1]` is `::1`, case does not matter. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * Which destinations the panel's outbound requests may reach: public unicast addresses, plus what
 * AERIE_OUTBOUND_ALLOW opens. Loopback, private, shared (CGNAT), link-local (the cloud metadata service at
 * 169.254.169.254 among them), multicast and reserved addresses are refused.
 */
export class OutboundPolicy {
  constructor(private readonly allow: OutboundAllow) {}

  /** Whether the admin opened this host name itself (AERIE_OUTBOUND_ALLOW): then any address it resolves to goes. */
  hostAllowed(hostname: string): boolean {
    return this.allow.hosts.includes(bareHost(hostname));
  }

  /**
   * Why `address` (an IP) may not be connected to: ipaddr.js's range name (`loopback`, `private`, `linkLocal`…)
   * or `reserved`; undefined when it may.
   */
  refusalOf(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return 'invalid';
    const parsed = unmapped(ipaddr.parse(address));
    if (
      this.allow.networks.some(
        ([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits),
      )
    )
      return undefined;
    const range = parsed.range();
    if (range !== 'unicast') return range;
    if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'reserved';
    return undefined;
  }

  /**
   * What can be said of a URL before any name is resolved: refused when its host is an IP literal (or `localhost`)
   * the policy refuses, or when it is plain http to a host the admin did not open (an allowed host or network).
   * A host name's addresses are checked at connect time (`guardedFetch`).
   * @returns the reason, or undefined when the URL may be tried
   */
  urlRefusal(url: URL): string | undefined {
    const host = bareHost(url.hostname);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'protocol';
    if (this.hostAllowed(host)) return undefined;
    if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
    if (isIP(host)) {
      const refusal = this.refusalOf(host);
      if (refusal) return refusal;
      // Plain http only where the admin opened it: a network listed in AERIE_OUTBOUND_ALLOW.
      if (url.protocol === 'http:' && !this.#listed(host)) return 'insecure';
      return undefined;
    }
    return url.protocol === 'http:' ? 'insecure' : undefined;
  }

  /** Whether plain http may be used to this URL's host (it is opened by AERIE_OUTBOUND_ALLOW). */
  allowsInsecure(url: URL): boolean {
    const host = bareHost(url.hostname);
    return this.hostAllowed(host) || (isIP(host) !== 0 && this.#listed(host));
  }

  #listed(address: string): boolean {
    const parsed = unmapped(ipaddr.parse(address));
    return this.allow.networks.some(
      ([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits),
    );
  }
}
