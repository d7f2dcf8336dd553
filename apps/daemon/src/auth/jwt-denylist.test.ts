import { describe, expect, it } from 'vitest';
import { JwtDenylist } from './jwt-denylist';

const SERVER = '2c4b6f0e-7a0b-4d53-9a59-2b7c1b7e9f10';
const OTHER_SERVER = '9f1b0c55-3f7e-4a7e-8a0c-6f5d2e4b1c22';

describe('JwtDenylist', () => {
  it('refuses tokens issued before the daemon started and accepts later ones', () => {
    const denylist = new JwtDenylist({ bootTime: new Date('2026-11-22T03:00:00.500Z') });
    const boot = Date.parse('2026-11-22T03:00:00Z') / 1000;
    expect(denylist.isDenied({ server_uuid: SERVER, iat: boot - 60 })).toBe(true);
    // The boot second itself is before the boot instant.
    expect(denylist.isDenied({ server_uuid: SERVER, iat: boot })).toBe(true);
    expect(denylist.isDenied({ server_uuid: SERVER, iat: boot + 1 })).toBe(false);
  });

  it('refuses a denied jti issued before the deny, on that server only, and accepts it issued after', () => {
    let clock = Date.parse('2026-11-22T03:10:00Z');
    const denylist = new JwtDenylist({ bootTime: new Date('2026-11-22T03:00:00Z'), now: () => clock });
    const before = clock / 1000 - 30;
    denylist.deny(SERVER, ['jti-a']);
    expect(denylist.isDenied({ server_uuid: SERVER, jti: 'jti-a', iat: before })).toBe(true);
    expect(denylist.isDenied({ server_uuid: SERVER, jti: 'jti-b', iat: before })).toBe(false);
    expect(denylist.isDenied({ server_uuid: OTHER_SERVER, jti: 'jti-a', iat: before })).toBe(false);
    expect(denylist.isDenied({ server_uuid: SERVER, jti: 'jti-a', iat: clock / 1000 + 1 })).toBe(false);

    clock += 60_000;
    denylist.deny(SERVER, ['jti-a']);
    expect(denylist.isDenied({ server_uuid: SERVER, jti: 'jti-a', iat: clock / 1000 - 30 })).toBe(true);
    denylist.forgetServer(SERVER);
    expect(denylist.isDenied({ server_uuid: SERVER, jti: 'jti-a', iat: clock / 1000 - 30 })).toBe(false);
  });
});
