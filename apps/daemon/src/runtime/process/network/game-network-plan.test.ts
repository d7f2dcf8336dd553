import { describe, expect, it } from 'vitest';
import { gameResolvers, parseAllowedDestinations, publishedPorts, slotAddresses } from './game-network-plan';

describe('the game network plan', () => {
  it('gives each slot its own /30: the host end .1, the game .2', () => {
    expect(slotAddresses(0)).toEqual({
      slot: 0,
      hostInterface: 'aerie0',
      hostAddress: '10.247.0.1',
      gameAddress: '10.247.0.2',
    });
    expect(slotAddresses(16_383).gameAddress).toBe('10.247.255.254');
  });

  it('reads the destinations an admin allows, and refuses what is not one', () => {
    expect(parseAllowedDestinations(' 10.0.0.5:3306, 192.168.1.0/24 ,')).toEqual([
      { network: '10.0.0.5/32', port: 3306 },
      { network: '192.168.1.0/24' },
    ]);
    for (const bad of ['localhost', '10.0.0.300', '10.0.0.0/33', '10.0.0.1:0', '::1', '10.0.0.1:70000']) {
      expect(() => parseAllowedDestinations(bad)).toThrow(`"${bad}" is not an IPv4 address`);
    }
  });

  it('forwards every allocation port, tcp and udp, once; 0.0.0.0 on every host address; never IPv6', () => {
    const ports = publishedPorts({
      default: { ip: '127.0.0.1', port: 25565 },
      mappings: { '127.0.0.1': [25565, 25566], '0.0.0.0': [27015], '::1': [1234], '10.0.0.2': [0] },
    });
    expect(ports.map((port) => `${port.map} ${port.key}`)).toEqual([
      'published 127.0.0.1 . tcp . 25565',
      'published 127.0.0.1 . udp . 25565',
      'published 127.0.0.1 . tcp . 25566',
      'published 127.0.0.1 . udp . 25566',
      'published_any tcp . 27015',
      'published_any udp . 27015',
    ]);
  });

  it("shows a game the host's resolvers, or those behind a loopback one (systemd-resolved)", () => {
    expect(gameResolvers('nameserver 10.255.255.53\n', undefined, '')).toEqual({
      servers: ['10.255.255.53'],
    });
    const stub = 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch example.com\n';
    const upstream = 'nameserver 192.0.2.53\nnameserver 127.0.0.1\nnameserver 198.51.100.53\n';
    expect(gameResolvers(stub, '/run/systemd/resolve/stub-resolv.conf', upstream)).toEqual({
      servers: ['192.0.2.53', '198.51.100.53'],
      override: {
        text: 'nameserver 192.0.2.53\nnameserver 198.51.100.53\noptions edns0 trust-ad\nsearch example.com\n',
        target: '/run/systemd/resolve/stub-resolv.conf',
      },
    });
    // A local dnsmasq with nothing known behind it: no DNS rather than a resolver the game cannot reach.
    expect(gameResolvers('nameserver 127.0.0.1\n', undefined, '')).toEqual({ servers: [] });
  });
});
