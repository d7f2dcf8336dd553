import { adminPermissions } from '@aerie/shared/admin-roles/admin-permissions';
import { describe, expect, it } from 'vitest';
import { adminCan, hasAdminArea } from '@/lib/admin-access';
import { toUser } from '@/lib/page-globals';
import { pageUser } from '@/testing/render-app';

describe('the admin permissions of the signed-in user', () => {
  it('are read from the shell, leaving out what this build does not know, and [] when missing', () => {
    expect(
      toUser(pageUser({ admin_permissions: ['users.read', 'bogus.read', 'roles.write'] })).adminPermissions,
    ).toEqual(['users.read', 'roles.write']);
    const { admin_permissions: _, ...olderShell } = pageUser();
    expect(toUser(olderShell).adminPermissions).toEqual([]);
    expect(toUser(pageUser({ root_admin: true })).adminPermissions).toEqual([...adminPermissions]);
  });

  it('open the admin area to root admins and role holders only', () => {
    const plain = toUser(pageUser());
    const role = toUser(pageUser({ admin_permissions: ['servers.read'] }));
    // A root admin whose shell lists nothing still holds everything.
    const root = toUser(pageUser({ root_admin: true, admin_permissions: [] }));
    expect([plain, role, root].map(hasAdminArea)).toEqual([false, true, true]);
    expect(adminCan(role, 'servers.read')).toBe(true);
    expect(adminCan(role, 'servers.write')).toBe(false);
    expect(adminCan(root, 'settings.write')).toBe(true);
    expect(adminCan(plain, 'servers.read')).toBe(false);
    expect(hasAdminArea(null)).toBe(false);
  });
});
