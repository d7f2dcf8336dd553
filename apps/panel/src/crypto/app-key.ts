import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'app.key';
const PREFIX = 'base64:';

/** Decodes `base64:<32 bytes>`; anything else is a configuration error the caller reports. */
export function decodeAppKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = trimmed.startsWith(PREFIX) ? Buffer.from(trimmed.slice(PREFIX.length), 'base64') : null;
  if (key?.length !== 32) {
    throw new Error(`The app key in ${origin} is not "base64:" followed by 32 bytes in base64.`);
  }
  return key;
}

export const encodeAppKey = (key: Buffer) => `${PREFIX}${key.toString('base64')}`;

/**
 * The key that encrypts secrets at rest. APP_KEY wins; otherwise it is kept in DATA_DIR/app.key (mode 0600),
 * generated on first boot. Losing it makes stored TOTP secrets unreadable, so an existing file is never rewritten.
 */
export function resolveAppKey(
  dataDir: string,
  fromEnv: string | undefined,
): { key: Buffer; generated: boolean } {
  if (fromEnv) return { key: decodeAppKey(fromEnv, 'APP_KEY'), generated: false };
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) {
    // Tighten a key file someone copied in with loose permissions.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return { key: decodeAppKey(readFileSync(file, 'utf8'), file), generated: false };
  }
  const key = randomBytes(32);
  // 'wx' fails if another process created the file in between, instead of overwriting its key.
  writeFileSync(file, `${encodeAppKey(key)}\n`, { mode: 0o600, flag: 'wx' });
  return { key, generated: true };
}

export const appKeyFile = (dataDir: string) => join(dataDir, KEY_FILE);
