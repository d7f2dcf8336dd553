import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { requestedPermissions } from '@aerie/shared/permissions/requested-permissions';
import { describe, expect, it } from 'vitest';
import { assertCanGrant } from './subuser.policy';

/** A subuser holding file.read (the only fields the grant check reads). */
const subuser = {
  isOwner: false,
  user: { rootAdmin: false },
  permissions: ['file.read', 'websocket.connect'],
} as ServerAccess;

describe('assertCanGrant', () => {
  it('is typed to take only permissions that went through the rules, never a body as sent', () => {
    // @ts-expect-error a plain array (the body's strings as sent) is not RequestedPermissions: `tsc` fails here
    // should the grant check ever take raw input again.
    expect(() => assertCanGrant(subuser, [' file.delete'])).toThrow(/actively possess/);
    expect(() => assertCanGrant(subuser, requestedPermissions([' file.delete']))).toThrow(/actively possess/);
  });

  it('weighs the normalised strings: held ones pass however padded, anything else is refused', () => {
    expect(() =>
      assertCanGrant(subuser, requestedPermissions([' file.read ', 'websocket.connect'])),
    ).not.toThrow();
    for (const beyond of ['FILE.READ', 'file.*', '*', 'nope.nothing', 'file.read-content']) {
      expect(() => assertCanGrant(subuser, requestedPermissions([beyond])), beyond).toThrow(
        /actively possess/,
      );
    }
  });

  it('lets owners and root admins grant anything', () => {
    const everything = requestedPermissions(['file.delete', 'nope.nothing']);
    expect(() => assertCanGrant({ ...subuser, isOwner: true }, everything)).not.toThrow();
    expect(() =>
      assertCanGrant({ ...subuser, user: { rootAdmin: true } } as ServerAccess, everything),
    ).not.toThrow();
  });
});
