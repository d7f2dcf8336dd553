import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts short secrets (TOTP seeds, later node tokens) with AES-256-GCM under a key derived from the app key.
 * The stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url, so a tampered value fails to open.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(appKey: Buffer) {
    this.#key = Buffer.from(hkdfSync('sha256', appKey, Buffer.alloc(0), 'aerie secret-box', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** @throws Error when the value was not sealed with this key or was altered. */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed secret.');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
