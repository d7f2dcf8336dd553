import { SignJWT } from 'jose';

export const TEST_NODE_TOKEN = 'test-node-token-0123456789abcdef0123456789abcdef0123456789abcdef';

export interface TestTokenClaims {
  server_uuid?: string;
  permissions?: string[];
  purpose?: string;
  jti?: string;
  user_uuid?: string;
  /** Seconds since the epoch; default now. `null` leaves the claim out. */
  iat?: number | null;
  /** Seconds since the epoch; default iat − 5 minutes, as the panel does. */
  nbf?: number;
  /** Seconds since the epoch; default iat + 10 minutes. */
  exp?: number;
  aud?: string;
  [claim: string]: unknown;
}

/** A token shaped like the panel's websocket token (HS256 with the node token), any claim overridable. */
export async function signTestToken(
  claims: TestTokenClaims = {},
  options: { key?: string; alg?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const iat = claims.iat === undefined ? now : claims.iat;
  const base = iat ?? now;
  const payload: Record<string, unknown> = {
    iss: 'http://127.0.0.1:8080',
    aud: 'http://127.0.0.1:8081',
    jti: 'b1946ac92492d2347c6235b4d2611184',
    nbf: base - 300,
    exp: base + 600,
    server_uuid: '00000000-0000-4000-8000-000000000000',
    permissions: ['*'],
    user_uuid: 'a8ca0a1c-51a5-4b12-9bd4-6d39c8f2a0c4',
    user_id: 1,
    unique_id: 'Xy7TqLm2Pw9Rz4Kc',
    purpose: 'websocket',
    ...claims,
  };
  if (iat === null) delete payload.iat;
  else payload.iat = iat;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(options.key ?? TEST_NODE_TOKEN));
}
