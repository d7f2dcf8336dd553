import { describe, expect, it } from 'vitest';
import { egressRuleset, hostForwards, userModeResolvConf } from './user-mode-plan';

describe('the user-mode network plan', () => {
  it("blocks the node's own addresses beside the private ranges, once each (nft refuses overlapping ones)", () => {
    const rules = egressRuleset({
      allowed: [{ network: '10.0.0.5/32', port: 3306 }],
      ownAddresses: ['127.0.0.1', '192.168.1.20', '198.51.100.7', '198.51.100.7', '::1'],
    });
    const blocked = /ip daddr \{ (.*) \} drop/.exec(rules)?.[1]?.split(', ');
    expect(blocked).toContain('198.51.100.7');
    expect(blocked?.filter((entry) => entry === '198.51.100.7')).toHaveLength(1);
    expect(blocked).not.toContain('127.0.0.1');
    expect(blocked).not.toContain('192.168.1.20');
    expect(rules).toContain('add element ip aerie allowed { 10.0.0.5/32 . 3306 }');
    // The allowed destinations and slirp4netns's DNS come before the drop.
    expect(rules.indexOf('@allowed accept')).toBeLessThan(rules.indexOf('drop'));
    expect(rules.indexOf('10.0.2.3')).toBeLessThan(rules.indexOf('drop'));
  });

  it("sends a game's questions to the host's resolvers to slirp4netns's forwarder", () => {
    const rules = egressRuleset({ allowed: [], ownAddresses: [], resolvers: ['10.255.255.53'] });
    expect(rules).toContain(
      'add rule ip aerie resolve ip daddr { 10.255.255.53 } meta l4proto { tcp, udp } th dport 53 dnat to 10.0.2.3',
    );
    expect(egressRuleset({ allowed: [], ownAddresses: [] })).not.toContain('dnat');
  });

  it('publishes each IPv4 allocation port over tcp and udp, once', () => {
    expect(
      hostForwards({
        default: { ip: '0.0.0.0', port: 25565 },
        mappings: { '0.0.0.0': [25565, 25566], '::': [25567] },
      }),
    ).toEqual([
      { proto: 'tcp', hostAddress: '0.0.0.0', port: 25565 },
      { proto: 'udp', hostAddress: '0.0.0.0', port: 25565 },
      { proto: 'tcp', hostAddress: '0.0.0.0', port: 25566 },
      { proto: 'udp', hostAddress: '0.0.0.0', port: 25566 },
    ]);
  });

  it("shows the game slirp4netns's resolver, keeping the host's search domains", () => {
    expect(userModeResolvConf('nameserver 127.0.0.53\nsearch example.org\noptions edns0\n')).toBe(
      'nameserver 10.0.2.3\nsearch example.org\noptions edns0\n',
    );
  });
});
