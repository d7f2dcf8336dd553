import { createHash, createHmac, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of `length` letters and digits (uniform, from the CSPRNG). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/**
 * CSPRNG bytes fetched 4 KiB at a time and handed out once each, as Node does for randomUUID: a page view takes a
 * nonce and a CSRF secret, and one randomFillSync per token cost more than rendering the page (bench/README.md).
 */
const pool = Buffer.allocUnsafeSlow(4096);
let poolOffset = pool.length;

/** A random URL-safe token carrying `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  if (bytes > pool.length) return randomFillSync(Buffer.allocUnsafe(bytes)).toString('base64url');
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + bytes);
  // The offset moves on, so no other token gets these bytes; zeroed, so the pool does not keep a copy of them.
  pool.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}

/** SHA-256 hex: for high-entropy tokens (session ids, reset tokens) a plain hash is enough to store. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** HMAC-SHA-256 hex under the app key: for short tokens, so a leaked table alone cannot be brute-forced. */
export const keyedHash = (key: Buffer, value: string) =>
  createHmac('sha256', key).update(value).digest('hex');

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
