import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { clearMail, resetLinkIn, sentMail } from '@aerie/panel/test/mail-outbox';
import { serverScenario } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invitedUsername } from './invited-user';

/**
 * Inviting an email that has no account (reference §7.2 "Subusers", new-user path): the account is made, mailed
 * a link to choose its password, and works once the link is used. Parallel invites of one email make one of each.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenario>>;
const users = () => `/api/client/servers/${s.server.uuid_short}/users`;
const invite = (email: string, permissions = ['file.read', 'file.read-content']) =>
  s.owner.browser.post(users(), { email, permissions });
const accountsWith = (email: string) =>
  t.db.selectFrom('users').selectAll().where('email', '=', email).execute();

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['user.create', 'file.read']);
});
afterAll(() => t.close());
beforeEach(() => clearMail(t));

describe('inviting an email without an account', () => {
  it('makes the account, mails it a set-password link, and the link lets the friend in', async () => {
    const response = await invite('Friend.Of-Mine+games@Example.com');
    expect(response.statusCode).toBe(200);
    const attributes = response.json().attributes;
    expect(attributes).toMatchObject({
      email: 'friend.of-mine+games@example.com',
      permissions: ['file.read', 'file.read-content', 'websocket.connect'],
      '2fa_enabled': false,
    });
    expect(attributes.username).toMatch(/^friend\.of-minegames[a-z0-9]{3}$/);
    const [account] = await accountsWith('friend.of-mine+games@example.com');
    expect(account).toMatchObject({ uuid: attributes.uuid, name_first: 'Server', name_last: 'Subuser' });
    expect(Boolean(account?.root_admin)).toBe(false);

    const mails = await sentMail(t);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as string;
    expect(mail).toContain('Account Created');
    expect(mail).toContain(`Username: ${attributes.username}`);
    const link = resetLinkIn(mail);
    expect(link.email).toBe('friend.of-mine+games@example.com');

    const friend = new TestBrowser(t.app, '10.60.0.1');
    const reset = await friend.post('/auth/password/reset', {
      token: link.token,
      email: link.email,
      password: 'a password of my own',
      password_confirmation: 'a password of my own',
    });
    expect(reset.statusCode).toBe(200);
    const again = new TestBrowser(t.app, '10.60.0.2');
    await again.signIn(attributes.username, 'a password of my own');
    const servers = await again.get('/api/client');
    expect(servers.json().data.map((item: { attributes: { uuid: string } }) => item.attributes.uuid)).toEqual(
      [s.server.uuid],
    );
    const server = await again.get(`/api/client/servers/${s.server.uuid_short}`);
    expect(server.json().meta.user_permissions).toEqual([
      'file.read',
      'file.read-content',
      'websocket.connect',
    ]);
  });

  it('mails nobody when the email already has an account', async () => {
    const { user } = await createTestUser(t.ctx);
    expect((await invite(user.email)).statusCode).toBe(200);
    expect(await sentMail(t)).toEqual([]);
  });

  it('makes no account when the invitation is refused', async () => {
    const refused = await s.subuser.browser.post(users(), {
      email: 'refused@example.com',
      permissions: ['control.console'],
    });
    expect(refused.statusCode).toBe(403);
    const invalid = await invite('invalid@example.com', []);
    expect(invalid.statusCode).toBe(422);
    expect(await accountsWith('refused@example.com')).toEqual([]);
    expect(await accountsWith('invalid@example.com')).toEqual([]);
    expect(await sentMail(t)).toEqual([]);
  });

  it('makes one account and one subuser for parallel invitations of the same email', async () => {
    const responses = await Promise.all(Array.from({ length: 4 }, () => invite('racer@example.com')));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    for (const response of responses.filter((candidate) => candidate.statusCode === 400)) {
      expect(response.json().errors[0].code).toBe('ServerSubuserExistsException');
    }
    const accounts = await accountsWith('racer@example.com');
    expect(accounts).toHaveLength(1);
    const rows = await t.db
      .selectFrom('subusers')
      .select('id')
      .where('user_id', '=', (accounts[0] as { id: number }).id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await sentMail(t)).toHaveLength(1);
  });

  it('makes usernames that pass the panel’s username rule from any email', () => {
    expect(invitedUsername('bob@example.com')).toMatch(/^bob[a-z0-9]{3}$/);
    expect(invitedUsername('..__Bob@example.com')).toMatch(/^bob[a-z0-9]{3}$/);
    expect(invitedUsername('мария@example.com')).toMatch(/^[a-z0-9]{3}$/);
    expect(invitedUsername(`${'x'.repeat(100)}@example.com`)).toMatch(/^x{64}[a-z0-9]{3}$/);
    for (let i = 0; i < 50; i++) {
      expect(invitedUsername('-.a_b.c-@example.com')).toMatch(/^[a-z0-9]([\w.-]*[a-z0-9])?$/);
    }
  });
});
