import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of `length` letters and digits (uniform, from the CSPRNG). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** A random URL-safe token carrying `bytes` of entropy. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

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
