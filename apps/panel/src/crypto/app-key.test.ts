import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appKeyFile, encodeAppKey, resolveAppKey } from './app-key';
import { SecretBox } from './secret-box';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-key-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the app key', () => {
  it('is generated once into DATA_DIR with mode 0600 and kept across boots', () => {
    const first = resolveAppKey(dataDir, undefined);
    expect(first.generated).toBe(true);
    expect(first.key).toHaveLength(32);
    expect(statSync(appKeyFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(readFileSync(appKeyFile(dataDir), 'utf8')).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/);
    const second = resolveAppKey(dataDir, undefined);
    expect(second.generated).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
  });

  it('comes from APP_KEY when set, and the file is then not created', () => {
    const key = randomBytes(32);
    const resolved = resolveAppKey(dataDir, encodeAppKey(key));
    expect(resolved.key.equals(key)).toBe(true);
    expect(() => statSync(appKeyFile(dataDir))).toThrow();
  });

  it('refuses a damaged key file instead of replacing it', () => {
    writeFileSync(appKeyFile(dataDir), 'base64:tooshort', { mode: 0o600 });
    expect(() => resolveAppKey(dataDir, undefined)).toThrow(/is not "base64:" followed by 32 bytes/);
    expect(readFileSync(appKeyFile(dataDir), 'utf8')).toBe('base64:tooshort');
  });

  it('tightens a key file with loose permissions', () => {
    writeFileSync(appKeyFile(dataDir), `${encodeAppKey(randomBytes(32))}\n`, { mode: 0o644 });
    resolveAppKey(dataDir, undefined);
    expect(statSync(appKeyFile(dataDir)).mode & 0o777).toBe(0o600);
  });
});

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses a tampered value and a value sealed under another key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('not sealed')).toThrow('Not a sealed secret.');
  });
});
