/**
 * Wire shapes and fixed messages of the account's SSH keys (`/api/client/account/ssh-keys`), used to log in over
 * SFTP (Pterodactyl's client API, reference §6 `ssh_key`, §7.1).
 */

/** The 422 details of `public_key`, word for word from the reference. */
export const sshKeyMessages = {
  invalid: 'The public key provided is not valid.',
  dsa: 'DSA keys are not supported.',
  weakRsa: 'RSA keys must be at least 2048 bytes in length.',
  duplicate: 'The public key provided already exists on your account.',
} as const;

/** Shortest RSA modulus accepted, in bits (the reference's message says "bytes"). */
export const sshKeyLimits = { minRsaBits: 2048 } as const;

/** `ssh_key` item. */
export interface SshKeyAttributes {
  name: string;
  /** SHA-256 of the key's OpenSSH blob, unpadded standard base64, without the `SHA256:` prefix. */
  fingerprint: string;
  /** The key re-encoded as PKCS#8 (SPKI) PEM, `-----BEGIN PUBLIC KEY-----`. */
  public_key: string;
  created_at: string;
}

export interface SshKeyItem {
  object: 'ssh_key';
  attributes: SshKeyAttributes;
}

/** GET /api/client/account/ssh-keys */
export interface SshKeyList {
  object: 'list';
  data: SshKeyItem[];
}

/** POST /api/client/account/ssh-keys */
export interface CreateSshKeyBody {
  name: string;
  /** An OpenSSH public key line (`ssh-ed25519 AAAA… comment`) or a PEM public key. */
  public_key: string;
}

/** POST /api/client/account/ssh-keys/remove */
export interface RemoveSshKeyBody {
  fingerprint: string;
}
