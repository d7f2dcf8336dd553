import { parseSshPublicKey } from '@aerie/panel/features/ssh-keys/ssh-public-key';
import ssh2 from 'ssh2';

/**
 * An ed25519 pair as OpenSSH writes it, from ssh2's generator, whose public line is a well-formed key. About 3 times
 * in 1,000 the generator writes a 31-byte key (length 0x1f in the blob), which the panel rightly refuses as "not
 * valid" (the daemon's host key generator retries for the same reason): a test must not fail on that draw.
 */
export function ed25519KeyPair(): { private: string; public: string } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (typeof parseSshPublicKey(pair.public) !== 'string') return pair;
  }
  throw new Error('ssh2 gave no well-formed ed25519 key in 20 tries');
}
