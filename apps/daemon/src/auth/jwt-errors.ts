/**
 * Why a daemon JWT was refused. The first five texts are Wings' own (the console page refreshes its token on the
 * exp and denylist ones and shows a generic error for the rest); the others name our stricter checks.
 */
export const JWT_ERROR_MESSAGES = {
  notPresent: 'jwt: no jwt present',
  expired: 'jwt: exp claim is invalid',
  denylisted: 'jwt: created too far in past (denylist)',
  noConnectPermission: 'jwt: missing connect permission',
  serverMismatch: 'jwt: server uuid mismatch',
  malformed: 'jwt: malformed token',
  algorithm: 'jwt: alg header must be HS256',
  signature: 'jwt: HMAC verification failed',
  claims: 'jwt: claims are missing or of the wrong type',
  purpose: 'jwt: purpose claim is invalid',
  notYetValid: 'jwt: nbf claim is invalid',
  issuedInFuture: 'jwt: iat claim is invalid',
  audience: 'jwt: aud claim is invalid',
} as const;

export type JwtErrorCode = keyof typeof JWT_ERROR_MESSAGES;

/** A refused token; `message` is the text sockets receive in `jwt error`. */
export class JwtError extends Error {
  override name = 'JwtError';
  readonly code: JwtErrorCode;

  constructor(code: JwtErrorCode) {
    super(JWT_ERROR_MESSAGES[code]);
    this.code = code;
  }
}
