import { compactVerify, errors } from 'jose';
import { z } from 'zod';
import { JwtError } from './jwt-errors';

/** What a token may be used for (CVE-2026-54593: a token for one purpose must not open another). */
export type JwtPurpose = 'websocket' | 'file_download' | 'file_upload' | 'backup_download' | 'transfer';

/** How far the daemon's clock may lag the panel's before a fresh token counts as not yet valid. */
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;

const claimsSchema = z.object({
  iss: z.string().optional(),
  /** Wings' transfer tokens name the server here. */
  sub: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  jti: z.string().optional(),
  /** Required: without it neither the boot time nor the denylist can be checked (Wings refuses it too). */
  iat: z.number(),
  nbf: z.number().optional(),
  exp: z.number(),
  purpose: z.string(),
  server_uuid: z.string(),
  permissions: z.array(z.string()).default([]),
  user_uuid: z.string().optional(),
  user_id: z.number().optional(),
  unique_id: z.string().optional(),
  /** File download tokens: the file, URL-decoded. */
  file_path: z.string().optional(),
  /** Backup download tokens: the backup (its file is `<uuid>.tar.gz` in the backup directory). */
  backup_uuid: z.string().optional(),
});

export type DaemonJwtClaims = z.output<typeof claimsSchema>;

export type JwtResult = { ok: true; claims: DaemonJwtClaims } | { ok: false; error: JwtError };

export interface VerifyDaemonJwtOptions {
  /** The node token: its plain bytes are the HS256 key. */
  nodeToken: string;
  purpose: JwtPurpose;
  /** When set, `aud` must be (or contain) it. */
  audience?: string;
  clockToleranceSeconds?: number;
  now?: () => number;
}

const fail = (code: ConstructorParameters<typeof JwtError>[0]): JwtResult => ({
  ok: false,
  error: new JwtError(code),
});

/** Seconds since the epoch, as JWT claims count time. */
const nowSeconds = (now: () => number) => now() / 1000;

/** True once `exp` has passed (no tolerance: the socket's token watcher says `token expired` at that moment). */
export function isExpired(claims: Pick<DaemonJwtClaims, 'exp'>, now: () => number = Date.now): boolean {
  return claims.exp <= nowSeconds(now);
}

/**
 * Verifies a panel-issued token: HS256 only, signature with the node token, claim types, purpose, exp, nbf and
 * iat (with a small tolerance for clock skew) and, if asked, the audience. Stricter than Wings, which checks only
 * the signature and exp. Permissions, server and denylist depend on where the token is used: the caller checks them.
 */
export async function verifyDaemonJwt(token: string, options: VerifyDaemonJwtOptions): Promise<JwtResult> {
  if (token.trim() === '') return fail('notPresent');
  const payload = await verifySignature(token, options.nodeToken);
  if (payload instanceof JwtError) return { ok: false, error: payload };
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) return fail('claims');
  const claims = parsed.data;
  if (claims.purpose !== options.purpose) return fail('purpose');
  const now = options.now ?? Date.now;
  const tolerance = options.clockToleranceSeconds ?? JWT_CLOCK_TOLERANCE_SECONDS;
  if (isExpired(claims, now)) return fail('expired');
  if (claims.nbf !== undefined && claims.nbf > nowSeconds(now) + tolerance) return fail('notYetValid');
  if (claims.iat > nowSeconds(now) + tolerance) return fail('issuedInFuture');
  if (options.audience !== undefined && !audienceMatches(claims.aud, options.audience))
    return fail('audience');
  return { ok: true, claims };
}

async function verifySignature(token: string, nodeToken: string): Promise<unknown> {
  try {
    const { payload } = await compactVerify(token, new TextEncoder().encode(nodeToken), {
      algorithms: ['HS256'],
    });
    return JSON.parse(new TextDecoder().decode(payload));
  } catch (error) {
    if (error instanceof errors.JOSEAlgNotAllowed) return new JwtError('algorithm');
    if (error instanceof errors.JWSSignatureVerificationFailed) return new JwtError('signature');
    return new JwtError('malformed');
  }
}

function audienceMatches(aud: DaemonJwtClaims['aud'], expected: string): boolean {
  if (aud === undefined) return false;
  return Array.isArray(aud) ? aud.includes(expected) : aud === expected;
}
