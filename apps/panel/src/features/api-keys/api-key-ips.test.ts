import { describe, expect, it } from 'vitest';
import { ipAllowed, isIpOrRange } from './api-key-ips';

describe('allowed_ips entries', () => {
  it.each([
    '127.0.0.1',
    '192.168.10.10/28',
    '0.0.0.0/0',
    '::1',
    '::1/128',
    '2001:db8::/32',
    '::ffff:7f00:1',
    '::ffff:192.168.0.1',
    'fe80::1',
  ])('accepts %s', (entry) => {
    expect(isIpOrRange(entry)).toBe(true);
  });

  it.each([
    '',
    'localhost',
    '256.1.1.1',
    '127.1',
    '0x7f.0.0.1',
    '1.2.3.4/33',
    '1.2.3.4/',
    '1.2.3.4/8/8',
    '1.2.3.4/-1',
    '::1/129',
    '2001:db8::/abc',
    '1.2.3.4 ',
  ])('refuses %j', (entry) => {
    expect(isIpOrRange(entry)).toBe(false);
  });
});

describe('ipAllowed', () => {
  it.each([
    ['any address with an empty list', '203.0.113.9', [], true],
    ['an exact IPv4 address', '10.0.0.7', ['10.0.0.7'], true],
    ['another IPv4 address', '10.0.0.8', ['10.0.0.7'], false],
    ['inside an IPv4 CIDR', '192.168.10.31', ['192.168.10.16/28'], true],
    ['outside an IPv4 CIDR', '192.168.10.32', ['192.168.10.16/28'], false],
    ['an IPv4-mapped client in an IPv4 range', '::ffff:192.168.10.20', ['192.168.10.16/28'], true],
    ['an IPv4 client against an IPv4-mapped entry', '127.0.0.1', ['::ffff:7f00:1'], true],
    ['inside an IPv6 CIDR', '2001:db8:ffff::1', ['2001:db8::/32'], true],
    ['outside an IPv6 CIDR', '2001:db9::1', ['2001:db8::/32'], false],
    ['IPv6 against IPv4 entries', '::1', ['127.0.0.1', '0.0.0.0/0'], false],
    ['IPv4 against IPv6 entries', '127.0.0.1', ['::1', '::/0'], false],
    ['a client address that cannot be read', 'unknown', ['0.0.0.0/0'], false],
    ['only valid entries count', '10.0.0.1', ['garbage', '10.0.0.0/8'], true],
  ] as const)('%s → %s', (_name, ip, entries, expected) => {
    expect(ipAllowed(ip, entries)).toBe(expected);
  });
});
