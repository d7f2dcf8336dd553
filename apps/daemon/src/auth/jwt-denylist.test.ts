import { describe, expect, it } from 'vitest';
import { JwtDenylist } from './jwt-denylist';

const SERVER = '2c4b6f0e-7a0b-4d53-9a59-2b7c1b7e9f10';
const OTHER_SERVER = '9f1b0c55-3f7e-4a7e-8a0c-6f5d2e4b1c22';

describe('JwtDenylist', () => {
  it('refuses tokens issued before the daemon started and accepts later ones', () => {
    const denylist = new JwtDenylist({ bootTime: new Date('2026-11-22T03:00:00.500Z') });
    const boot = Date.parse('2026-11-22T03:00:00Z') / 1000;
    expect(denylist.isDenied({ server_uuid: SERVER, iat: boot - 60 })).toBe(true);
    expect(denylist.isDenied({ server_uuid: SERVER, iat: boot - 1 })).toBe(true);
    // A token signed in the boot second, after the boot instant, is not refused for want of a later second.
    expect(denylist.isDenied({ server_uuid: SERVER, iat: boot })).toBe(false);
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

  it("refuses a denied user's tokens issued at or before the deny, whatever their jti, on that server only", () => {
    const clock = Date.parse('2026-11-22T03:10:00.250Z');
    const denylist = new JwtDenylist({ bootTime: new Date('2026-11-22T03:00:00Z'), now: () => clock });
    const user = 'a8ca0a1c-51a5-4b12-9bd4-6d39c8f2a0c4';
    const denySecond = Math.floor(clock / 1000);
    denylist.denyUsers(SERVER, [user]);
    const claims = (iat: number, server = SERVER, user_uuid: string | null = user) => ({
      server_uuid: server,
      jti: 'any-jti',
      user_uuid: user_uuid ?? undefined,
      iat,
    });
    expect(denylist.isDenied(claims(denySecond - 30))).toBe(true);
    // Issued in the very second of the deny: at or before it.
    expect(denylist.isDenied(claims(denySecond))).toBe(true);
    expect(denylist.isDenied(claims(denySecond + 1))).toBe(false);
    expect(denylist.isDenied(claims(denySecond - 30, OTHER_SERVER))).toBe(false);
    expect(denylist.isDenied(claims(denySecond - 30, SERVER, 'another-user'))).toBe(false);
    expect(denylist.isDenied(claims(denySecond - 30, SERVER, null))).toBe(false);
  });

  it('refuses a user denied everywhere on every server, including one it never saw', () => {
    const clock = Date.parse('2026-11-22T03:10:00Z');
    const denylist = new JwtDenylist({ bootTime: new Date('2026-11-22T03:00:00Z'), now: () => clock });
    denylist.denyUsersEverywhere(['user-x']);
    const before = clock / 1000 - 5;
    expect(denylist.isDenied({ server_uuid: SERVER, user_uuid: 'user-x', iat: before })).toBe(true);
    expect(denylist.isDenied({ server_uuid: OTHER_SERVER, user_uuid: 'user-x', iat: before })).toBe(true);
    expect(denylist.isDenied({ server_uuid: SERVER, user_uuid: 'user-y', iat: before })).toBe(false);
    expect(denylist.isDenied({ server_uuid: SERVER, user_uuid: 'user-x', iat: clock / 1000 + 1 })).toBe(
      false,
    );
  });

  it('tells whether an access granted at a given millisecond was denied since, and whom it concerned', () => {
    let clock = Date.parse('2026-11-22T03:10:00.100Z');
    const denylist = new JwtDenylist({ bootTime: new Date('2026-11-22T03:00:00Z'), now: () => clock });
    const user = 'a8ca0a1c-51a5-4b12-9bd4-6d39c8f2a0c4';
    const told: (string | undefined)[] = [];
    const stop = denylist.onDeny((server) => told.push(server));
    const grantedBefore = clock - 1;
    denylist.denyUsers(SERVER, [user]);
    expect(denylist.deniedSince(SERVER, { userUuid: user }, grantedBefore)).toBe(true);
    expect(denylist.deniedSince(SERVER, { userUuid: user }, clock)).toBe(true);
    // A login in the same second, after the deny (a new password), is not refused.
    expect(denylist.deniedSince(SERVER, { userUuid: user }, clock + 1)).toBe(false);
    expect(denylist.deniedSince(OTHER_SERVER, { userUuid: user }, grantedBefore)).toBe(false);
    clock += 10;
    denylist.deny(OTHER_SERVER, ['jti-x']);
    expect(denylist.deniedSince(OTHER_SERVER, { jti: 'jti-x' }, clock - 5)).toBe(true);
    denylist.denyUsersEverywhere([user]);
    expect(denylist.deniedSince(OTHER_SERVER, { userUuid: user, jti: 'other' }, clock)).toBe(true);
    stop();
    denylist.deny(SERVER, ['jti-y']);
    expect(told).toEqual([SERVER, OTHER_SERVER, undefined]);
  });
});
