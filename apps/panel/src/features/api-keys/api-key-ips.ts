import { apiKeyErrorMessages } from '@aerie/shared/api-keys/api-keys-wire';
import type { ApiErrorItem } from '@aerie/shared/errors/error-envelope';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An address in its canonical written forms only: dotted four-part IPv4 (ipaddr's looser `127.1` or `0x7f.1`
 * forms would surprise whoever reads the allow-list later) or IPv6.
 */
function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

/** An `allowed_ips` entry as a range: a single address is a /32 (IPv4) or /128 (IPv6). Null when invalid. */
export function parseIpRange(entry: string): [Address, number] | null {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return null;
  const parsed = parseAddress(address);
  if (!parsed) return null;
  const maxBits = parsed.kind() === 'ipv4' ? 32 : 128;
  if (prefix === undefined) return [parsed, maxBits];
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > maxBits) return null;
  return [parsed, Number(prefix)];
}

export const isIpOrRange = (entry: string): boolean => parseIpRange(entry) !== null;

/**
 * True when the request address falls in one of the ranges, or the list is empty (any address). IPv4-mapped IPv6
 * addresses (`::ffff:10.0.0.1`, how a dual-stack socket reports IPv4 clients) count as the IPv4 address, on both
 * sides.
 */
export function ipAllowed(requestIp: string, entries: readonly string[]): boolean {
  if (entries.length === 0) return true;
  let ip: Address;
  try {
    ip = ipaddr.process(requestIp);
  } catch {
    return false;
  }
  return entries.some((entry) => {
    const range = parseIpRange(entry);
    if (!range) return false;
    let [network, bits] = range;
    if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      network = (network as ipaddr.IPv6).toIPv4Address();
      bits -= 96;
    }
    return ip.kind() === network.kind() && ip.match(network, bits);
  });
}

/** One 422 entry per `allowed_ips` item that is a string but neither an IP address nor a CIDR range. */
export function invalidIpEntries(input: Record<string, unknown>): ApiErrorItem[] {
  const ips = input.allowed_ips;
  if (!Array.isArray(ips)) return [];
  return ips.flatMap((ip, index) =>
    typeof ip === 'string' && !isIpOrRange(ip)
      ? [
          {
            code: 'ValidationException',
            status: '422',
            detail: apiKeyErrorMessages.invalidIpOrRange(ip),
            meta: { source_field: `allowed_ips.${index}`, rule: '' },
          },
        ]
      : [],
  );
}
