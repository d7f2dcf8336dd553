import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { permissionCatalogue } from '@aerie/shared/permissions/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /api/client/permissions', () => {
  it("answers the reference's 40 permissions by category in its order, then Aerie's mount permissions", async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const response = await browser.get('/api/client/permissions');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.object).toBe('system_permissions');
    expect(body.attributes.permissions).toEqual(permissionCatalogue);
    const categories = Object.keys(body.attributes.permissions);
    expect(categories).toEqual([
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
    const keys = categories.flatMap((category) =>
      Object.keys(body.attributes.permissions[category].keys).map((key) => `${category}.${key}`),
    );
    expect(keys).toHaveLength(42);
    expect(keys.slice(-2)).toEqual(['mount.read', 'mount.update']);
    expect(keys.slice(0, 5)).toEqual([
      'websocket.connect',
      'control.console',
      'control.start',
      'control.stop',
      'control.restart',
    ]);
    expect(body.attributes.permissions.file.keys['read-content']).toEqual(expect.any(String));
  });

  it('answers 401 to guests', async () => {
    const response = await new TestBrowser(t.app).get('/api/client/permissions');
    expect(response.statusCode).toBe(401);
  });
});
