import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ownAddresses, parseAllowedNetworks, refusalOf } from './pull-destinations';

const open = { allow: [], own: new Set<string>() };

describe('refusalOf: where a pull may connect', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    // IPv4-compatible, NAT64 and 6to4 forms can carry an inner address: never treated as public.
    ['::7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
  ])('%s is refused (%s)', (address, range) => {
    expect(refusalOf(address, open)).toBe(range);
  });

  it.each(['1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:1.1.1.1'])(
    '%s is public',
    (address) => {
      expect(refusalOf(address, open)).toBeUndefined();
    },
  );

  it("refuses the node's own addresses, even public ones", () => {
    expect(refusalOf('203.0.114.7', { allow: [], own: new Set(['203.0.114.7']) })).toBe('own');
    const own = ownAddresses();
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4');
    if (lan) expect(refusalOf(lan.address, { allow: [], own })).toBeDefined();
    expect(own.has('127.0.0.1')).toBe(true);
  });

  it('lets an admin open networks with DAEMON_PULL_ALLOW (IPv4, IPv6, mapped)', () => {
    const allow = parseAllowedNetworks(' 127.0.0.1/32, 10.0.0.0/8,fd00::/8 ,192.168.1.5');
    const policy = { allow, own: ownAddresses() };
    expect(refusalOf('127.0.0.1', policy)).toBeUndefined();
    expect(refusalOf('::ffff:127.0.0.1', policy)).toBeUndefined();
    expect(refusalOf('127.0.0.2', policy)).toBe('loopback');
    expect(refusalOf('10.200.0.1', policy)).toBeUndefined();
    expect(refusalOf('fd00::5', policy)).toBeUndefined();
    expect(refusalOf('192.168.1.5', policy)).toBeUndefined();
    expect(refusalOf('192.168.1.6', policy)).toBe('private');
    expect(parseAllowedNetworks('::ffff:10.0.0.0/104')[0]?.[1]).toBe(8);
  });

  it('names an entry of DAEMON_PULL_ALLOW that is not a network', () => {
    expect(() => parseAllowedNetworks('10.0.0.0/8,example.com')).toThrow(
      '"example.com" is not an IP address or network such as 10.0.0.0/8 or fd00::/8',
    );
    expect(() => parseAllowedNetworks('10.0.0.0/33')).toThrow('"10.0.0.0/33"');
  });
});
