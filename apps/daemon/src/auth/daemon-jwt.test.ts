import { describe, expect, it } from 'vitest';
import { verifyDaemonJwt } from './daemon-jwt';
import { signTestToken, TEST_NODE_TOKEN } from './testing/sign-token';

const now = () => Math.floor(Date.now() / 1000);
const verify = (token: string, audience?: string) =>
  verifyDaemonJwt(token, { nodeToken: TEST_NODE_TOKEN, purpose: 'websocket', audience });

const refusal = async (token: string, audience?: string) => {
  const result = await verify(token, audience);
  return result.ok ? 'accepted' : result.error.message;
};

describe('verifyDaemonJwt', () => {
  it('accepts a panel-shaped websocket token and returns its claims', async () => {
    const result = await verify(
      await signTestToken({ permissions: ['websocket.connect', 'control.console'] }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.claims.server_uuid).toBe('00000000-0000-4000-8000-000000000000');
    expect(result.claims.permissions).toEqual(['websocket.connect', 'control.console']);
    expect(result.claims.purpose).toBe('websocket');
  });

  it.each([
    ['an empty token', async () => '', 'jwt: no jwt present'],
    ['garbage', async () => 'not.a.jwt', 'jwt: malformed token'],
    [
      'another key',
      () => signTestToken({}, { key: 'some-other-node-token' }),
      'jwt: HMAC verification failed',
    ],
    ['HS512', () => signTestToken({}, { alg: 'HS512' }), 'jwt: alg header must be HS256'],
    ['a download token', () => signTestToken({ purpose: 'file_download' }), 'jwt: purpose claim is invalid'],
    [
      'no purpose',
      () => signTestToken({ purpose: undefined }),
      'jwt: claims are missing or of the wrong type',
    ],
    ['an expired token', () => signTestToken({ exp: now() - 1 }), 'jwt: exp claim is invalid'],
    ['nbf a minute ahead', () => signTestToken({ nbf: now() + 60 }), 'jwt: nbf claim is invalid'],
    ['iat a minute ahead', () => signTestToken({ iat: now() + 60 }), 'jwt: iat claim is invalid'],
    ['no iat', () => signTestToken({ iat: null }), 'jwt: claims are missing or of the wrong type'],
    [
      'a numeric server',
      () => signTestToken({ server_uuid: 5 as never }),
      'jwt: claims are missing or of the wrong type',
    ],
  ])('refuses %s', async (_name, token, message) => {
    expect(await refusal(await token())).toBe(message);
  });

  it('allows a little clock skew on nbf but not on exp', async () => {
    expect(await refusal(await signTestToken({ nbf: now() + 10 }))).toBe('accepted');
    expect(await refusal(await signTestToken({ exp: now() }))).toBe('jwt: exp claim is invalid');
  });

  it('refuses an "alg: none" token', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const payload = {
      iat: now(),
      exp: now() + 600,
      purpose: 'websocket',
      server_uuid: 'x',
      permissions: ['*'],
    };
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`;
    expect(await refusal(unsigned)).toBe('jwt: alg header must be HS256');
  });

  it('checks the audience only when asked', async () => {
    const token = await signTestToken({ aud: 'http://127.0.0.1:8081' });
    expect(await refusal(token)).toBe('accepted');
    expect(await refusal(token, 'http://127.0.0.1:8081')).toBe('accepted');
    expect(await refusal(token, 'https://node.example.com:8080')).toBe('jwt: aud claim is invalid');
  });
});
