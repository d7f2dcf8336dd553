import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { sshKeyLimits } from '@aerie/shared/ssh-keys/ssh-keys-wire';
import ssh2 from 'ssh2';

/** A usable SSH public key, in the forms the panel stores and compares. */
export interface SshPublicKey {
  /** OpenSSH key type: `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`… */
  type: string;
  /** SHA-256 of the OpenSSH blob, unpadded standard base64 (`ssh-keygen -l` without its `SHA256:`). */
  fingerprint: string;
  /**
   * PKCS#8 (SPKI) PEM, `-----BEGIN PUBLIC KEY-----`: as pasted when it was pasted so, else laid out as Pterodactyl
   * stores it (phpseclib's `toString('PKCS8')`: 64-character lines ending in CRLF, nothing after the END line).
   */
  pem: string;
}

/** Why a text is not a key the panel takes (each has its 422 text in `sshKeyMessages`). */
export type SshPublicKeyProblem = 'invalid' | 'dsa' | 'weak-rsa';

/** PEM labels of public keys; anything else (a private key, a certificate) is not one. */
const PUBLIC_PEM = /^-----BEGIN (PUBLIC KEY|RSA PUBLIC KEY)-----\r?\n[A-Za-z0-9+/=\r\n]+-----END \1-----$/;
const CURVES: Record<string, string> = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' };

/**
 * Reads a public key as users paste it: an OpenSSH line (`ssh-ed25519 AAAA… comment`) or a PEM public key (SPKI
 * or PKCS#1 RSA). Private keys are refused, whatever their format (a pasted private key must not be stored), as
 * are DSA keys and RSA keys under 2048 bits. The fingerprint is taken from the key's OpenSSH blob, so a key pasted
 * as PEM and the same key offered by an SSH client match.
 */
export function parseSshPublicKey(text: unknown): SshPublicKey | SshPublicKeyProblem {
  if (typeof text !== 'string') return 'invalid';
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 16_384) return 'invalid';
  if (!trimmed.startsWith('-----BEGIN')) return fromOpenSsh(trimmed);
  const key = fromPem(trimmed);
  // An SPKI PEM is kept exactly as given (trimmed, as Laravel trims every input): clients compare what they sent.
  return typeof key !== 'string' && trimmed.startsWith('-----BEGIN PUBLIC KEY-----')
    ? { ...key, pem: trimmed }
    : key;
}

/** SPKI PEM in phpseclib's layout, which is what Pterodactyl stores for a key pasted in another form. */
function upstreamPem(key: KeyObject): string {
  const body = key.export({ type: 'spki', format: 'der' }).toString('base64');
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\r\n${lines.map((line) => `${line}\r\n`).join('')}-----END PUBLIC KEY-----`;
}

/** The fingerprint of an OpenSSH blob. */
export const sshFingerprint = (blob: Buffer) =>
  createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');

function fromOpenSsh(line: string): SshPublicKey | SshPublicKeyProblem {
  let parsed = ssh2.utils.parseKey(line);
  if (Array.isArray(parsed)) parsed = parsed[0] ?? new Error('No key');
  if (parsed instanceof Error || parsed.isPrivateKey()) return 'invalid';
  if (parsed.type === 'ssh-dss') return 'dsa';
  const publicPem = parsed.getPublicPEM();
  const key = publicPem ? keyObject(publicPem) : undefined;
  if (!key) return 'invalid';
  return checked(parsed.type, parsed.getPublicSSH(), key);
}

function fromPem(pem: string): SshPublicKey | SshPublicKeyProblem {
  const normalised = pem.replace(/\r\n/g, '\n');
  if (!PUBLIC_PEM.test(normalised)) return 'invalid';
  const key = keyObject(normalised);
  if (!key) return 'invalid';
  const jwk = key.asymmetricKeyType === 'dsa' ? undefined : key.export({ format: 'jwk' });
  switch (key.asymmetricKeyType) {
    case 'dsa':
      return 'dsa';
    case 'rsa':
      return checked('ssh-rsa', blob('ssh-rsa', mpint(jwk?.e), mpint(jwk?.n)), key);
    case 'ed25519':
      return checked('ssh-ed25519', blob('ssh-ed25519', sshString(b64url(jwk?.x))), key);
    case 'ec': {
      const curve = CURVES[jwk?.crv ?? ''];
      if (!curve) return 'invalid';
      const point = Buffer.concat([Buffer.from([4]), b64url(jwk?.x), b64url(jwk?.y)]);
      const type = `ecdsa-sha2-${curve}`;
      return checked(type, blob(type, sshString(Buffer.from(curve)), sshString(point)), key);
    }
    default:
      return 'invalid';
  }
}

function checked(type: string, sshBlob: Buffer, key: KeyObject): SshPublicKey | SshPublicKeyProblem {
  if (type === 'ssh-rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < sshKeyLimits.minRsaBits) {
    return 'weak-rsa';
  }
  return {
    type,
    fingerprint: sshFingerprint(sshBlob),
    pem: upstreamPem(key),
  };
}

function keyObject(pem: string): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: pem, format: 'pem' });
    return key.type === 'public' ? key : undefined;
  } catch {
    return undefined;
  }
}

const b64url = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');

function sshString(data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

/** An SSH mpint of a positive big-endian integer: a leading zero byte when its top bit is set. */
function mpint(value: string | undefined): Buffer {
  let bytes = b64url(value);
  while (bytes.length > 1 && bytes[0] === 0 && (bytes[1] ?? 0) < 0x80) bytes = bytes.subarray(1);
  return sshString((bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

const blob = (type: string, ...parts: Buffer[]) => Buffer.concat([sshString(Buffer.from(type)), ...parts]);
