import { parseSshPublicKey } from '@aerie/panel/features/ssh-keys/ssh-public-key';
import ssh2, { type ParsedKey } from 'ssh2';

type KeyType = 'ed25519' | 'ecdsa' | 'rsa';

/**
 * A pair as OpenSSH writes it, from ssh2's generator, that ssh2 reads back and whose public line is well formed.
 * About 3 times in 1,000 the generator drops a leading zero byte of an Ed25519 key (length 0x1f in the blob), which
 * the panel rightly refuses as "not valid" and ssh2 cannot parse (the daemon's host key generator retries for the
 * same reason): a test must not fail on that draw.
 */
export function sshKeyPair(
  type: KeyType = 'ed25519',
  options: { comment?: string } = {},
): { private: string; public: string; parsed: ParsedKey } {
  const bits = type === 'rsa' ? 2048 : type === 'ecdsa' ? 384 : undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const pair = ssh2.utils.generateKeyPairSync(type, { ...options, ...(bits ? { bits } : {}) });
    const parsed = ssh2.utils.parseKey(pair.private);
    if (parsed instanceof Error || Array.isArray(parsed)) continue;
    if (typeof parseSshPublicKey(pair.public) !== 'string') return { ...pair, parsed };
  }
  throw new Error(`ssh2 gave no well-formed ${type} key in 20 tries`);
}

/** An ed25519 pair (see sshKeyPair). */
export const ed25519KeyPair = (): { private: string; public: string } => sshKeyPair('ed25519');
