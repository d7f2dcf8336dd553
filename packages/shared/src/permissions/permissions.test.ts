import { describe, expect, it } from 'vitest';
import {
  allPermissions,
  isPermission,
  permissionCatalogue,
  sanitizeSubuserPermissions,
  systemPermissionsResponse,
} from './permissions';

describe('permission catalogue', () => {
  it("lists Pterodactyl's 11 categories in the order of the client API, then Aerie's own", () => {
    expect(Object.keys(permissionCatalogue)).toEqual([
      'websocket',
      'control',
      'user',
      'file',
      'backup',
      'allocation',
      'startup',
      'database',
      'schedule',
      'settings',
      'activity',
      'mount',
    ]);
  });

  it('holds the 42 permission strings, in catalogue order', () => {
    expect(allPermissions).toHaveLength(42);
    expect(new Set(allPermissions).size).toBe(42);
    expect(allPermissions.slice(0, 6)).toEqual([
      'websocket.connect',
      'control.console',
      'control.start',
      'control.stop',
      'control.restart',
      'user.create',
    ]);
    expect(allPermissions).toEqual(
      expect.arrayContaining([
        'file.read-content',
        'file.sftp',
        'backup.restore',
        'allocation.delete',
        'startup.docker-image',
        'database.view_password',
        'schedule.update',
        'settings.reinstall',
        'activity.read',
      ]),
    );
    expect(allPermissions.slice(-3)).toEqual(['activity.read', 'mount.read', 'mount.update']);
  });

  it('describes every category and every key in a sentence', () => {
    for (const [category, { description, keys }] of Object.entries(permissionCatalogue)) {
      expect(description, category).toMatch(/^[A-Z].{10,}\.$/);
      for (const [key, text] of Object.entries(keys))
        expect(text, `${category}.${key}`).toMatch(/^[A-Z].{10,}\.$/);
    }
  });

  it('answers GET /api/client/permissions in the Pterodactyl envelope', () => {
    const body = JSON.parse(JSON.stringify(systemPermissionsResponse()));
    expect(body.object).toBe('system_permissions');
    expect(Object.keys(body.attributes.permissions)).toHaveLength(12);
    expect(Object.keys(body.attributes.permissions.file.keys)).toEqual([
      'create',
      'read',
      'read-content',
      'update',
      'delete',
      'archive',
      'sftp',
    ]);
    expect(typeof body.attributes.permissions.control.keys.console).toBe('string');
  });

  it.each([
    ['file.read', true],
    ['websocket.connect', true],
    ['*', false],
    ['file.*', false],
    ['admin.websocket.errors', false],
    ['file.Read', false],
    [42, false],
    [null, false],
  ])('isPermission(%j) is %s', (value, expected) => {
    expect(isPermission(value)).toBe(expected);
  });
});

describe('sanitizeSubuserPermissions', () => {
  it.each([
    [[], ['websocket.connect']],
    [['control.start'], ['control.start', 'websocket.connect']],
    [
      ['file.read', 'control.start', 'file.read'],
      ['file.read', 'control.start', 'websocket.connect'],
    ],
    [
      ['nope.nope', 'control.start', '*', 'file.*', 'admin.websocket.errors'],
      ['control.start', 'websocket.connect'],
    ],
    [
      ['websocket.connect', 'backup.read'],
      ['websocket.connect', 'backup.read'],
    ],
    [
      ['backup.read', 'websocket.connect', 'websocket.connect'],
      ['backup.read', 'websocket.connect'],
    ],
    [
      [1, null, { key: 'file.read' }, 'user.read'],
      ['user.read', 'websocket.connect'],
    ],
  ])('stores %j as %j', (input, stored) => {
    expect(sanitizeSubuserPermissions(input)).toEqual(stored);
  });

  it('does not change the list it is given', () => {
    const input = ['control.start'];
    sanitizeSubuserPermissions(input);
    expect(input).toEqual(['control.start']);
  });
});
