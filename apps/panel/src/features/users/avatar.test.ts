import { createHash } from 'node:crypto';
import { ConfigError, loadConfig } from '@aerie/panel/config/load-config';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { serverScenario } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarUrl } from './avatar';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('avatarUrl', () => {
  it('is empty without an avatar service, so no page asks a third party about users', () => {
    expect(avatarUrl('Someone@Example.com', undefined)).toBe('');
  });

  it('fills {md5} and {sha256} with the hash of the trimmed, lowercased email', () => {
    expect(avatarUrl(' Someone@Example.com', 'https://www.gravatar.com/avatar/{md5}?s=400')).toBe(
      `https://www.gravatar.com/avatar/${md5('someone@example.com')}?s=400`,
    );
    const sha = createHash('sha256').update('someone@example.com').digest('hex');
    expect(avatarUrl('someone@example.com', 'https://seccdn.libravatar.org/avatar/{sha256}?s=400')).toBe(
      `https://seccdn.libravatar.org/avatar/${sha}?s=400`,
    );
  });

  it('is checked at boot: an http(s) URL with a hash placeholder', () => {
    const dataDir = '/nonexistent-aerie-test';
    expect(() => loadConfig({ DATA_DIR: dataDir, AVATAR_URL_TEMPLATE: 'https://example.com/a.png' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, AVATAR_URL_TEMPLATE: 'ftp://example.com/{md5}' })).toThrow(
      /AVATAR_URL_TEMPLATE/,
    );
    expect(loadConfig({ DATA_DIR: dataDir }).avatarUrlTemplate).toBeUndefined();
  });
});

describe('with AVATAR_URL_TEMPLATE set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AVATAR_URL_TEMPLATE: 'https://www.gravatar.com/avatar/{md5}?s=400' } });
  });
  afterAll(() => t.close());

  it('gives subusers (and the server’s subusers include) a picture URL of size 400', async () => {
    const s = await serverScenario(t, ['user.read']);
    const expected = `https://www.gravatar.com/avatar/${md5(s.subuser.user.email)}?s=400`;
    const users = await s.owner.get(`/api/client/servers/${s.server.uuid_short}/users`);
    expect(users.json().data[0].attributes.image).toBe(expected);
    const server = await s.owner.get(`/api/client/servers/${s.server.uuid_short}?include=subusers`);
    expect(server.json().attributes.relationships.subusers.data[0].attributes.image).toBe(expected);
  });
});
