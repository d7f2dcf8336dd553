import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { sshKeyPair } from '@aerie/panel/test/ssh-key-pair';
import { describe, expect, it } from 'vitest';
import { parseSshPublicKey, type SshPublicKey } from './ssh-public-key';

/** Keys made by OpenSSH's ssh-keygen, with the fingerprints `ssh-keygen -l` printed for them. */
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJHnFIloCwyJkh13jdlFjmDubIoMjW8hwHOkW/1D2H1y me@host';
const RSA_2048 =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDPOj/zg92LloIkudC6j7wRofwOwO8I/vFOEWuWkR94Ds1lGB1XxQsjmxO+jKBsIeBRPiHrmhmcPNzIPRL8u9F7fBHmbk1J8WWGdvIQLfBIFKrVqetmltTnrXMhJ8MoZWNmZYm/MGRQuE8VRod3x7uylWS2+PlXSFLEjAbAmFrbmxCuY/TZ1CGOia6Kq328CYibpvZ89/+5kv39S9HUHh1LCDxz3gQ29rpBmQTmDvN5alFDqAOaHb46MPZztx/r22dnn4uVKZhogEak5/P32H3xWU9y1N4Nw7rrT0zzlgiHPRPRyn40PryAWqSC0loE3FM2FzPuAzV/uWlYU/p0oex/ root@vm';
const RSA_2048_SPKI = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzzo/84Pdi5aCJLnQuo+8
EaH8DsDvCP7xThFrlpEfeA7NZRgdV8ULI5sTvoygbCHgUT4h65oZnDzcyD0S/LvR
e3wR5m5NSfFlhnbyEC3wSBSq1anrZpbU561zISfDKGVjZmWJvzBkULhPFUaHd8e7
spVktvj5V0hSxIwGwJha25sQrmP02dQhjomuiqt9vAmIm6b2fPf/uZL9/UvR1B4d
Swg8c94ENva6QZkE5g7zeWpRQ6gDmh2+OjD2c7cf69tnZ5+LlSmYaIBGpOfz99h9
8VlPctTeDcO6609M85YIhz0T0cp+ND68gFqkgtJaBNxTNhcz7gM1f7lpWFP6dKHs
fwIDAQAB
-----END PUBLIC KEY-----`;
const RSA_2048_PKCS1 = `-----BEGIN RSA PUBLIC KEY-----
MIIBCgKCAQEAzzo/84Pdi5aCJLnQuo+8EaH8DsDvCP7xThFrlpEfeA7NZRgdV8UL
I5sTvoygbCHgUT4h65oZnDzcyD0S/LvRe3wR5m5NSfFlhnbyEC3wSBSq1anrZpbU
561zISfDKGVjZmWJvzBkULhPFUaHd8e7spVktvj5V0hSxIwGwJha25sQrmP02dQh
jomuiqt9vAmIm6b2fPf/uZL9/UvR1B4dSwg8c94ENva6QZkE5g7zeWpRQ6gDmh2+
OjD2c7cf69tnZ5+LlSmYaIBGpOfz99h98VlPctTeDcO6609M85YIhz0T0cp+ND68
gFqkgtJaBNxTNhcz7gM1f7lpWFP6dKHsfwIDAQAB
-----END RSA PUBLIC KEY-----`;
const ECDSA_256 =
  'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIaZoumrZriESFn1aSP3dRp/8GKIDXovyIgiO1VAKtyj6HXGMKUrpFBnSNSXPSxDx/C7GpaGBLVnu9/qEksSQVk= root@vm';
const RSA_1024 =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC0KnuGr/7RECCDg1n42M+H4aHdHmEq/ygseeMtOZWfRFvSs+mi1I0dBwkQARnq4EZXB9gmXJmCHdhUy5npOgPjnj9n+KKyI4feutHyuLCoicLlW5Jy/EOat5zkAWVyrRw1q80yqILszFVKkGB9mDs1y8sjt/wBTOo2REzssMQSMQ== root@vm';

const key = (text: string) => parseSshPublicKey(text) as SshPublicKey;

describe('parseSshPublicKey', () => {
  it('gives the fingerprint ssh-keygen gives, from an OpenSSH line or the same key as PEM', () => {
    expect(key(ED25519)).toMatchObject({
      type: 'ssh-ed25519',
      fingerprint: 'Iq+8/7hC3+xT13FPmOoOmDmS0SwCr1yepnkTW6gl5tM',
    });
    expect(key(ECDSA_256).fingerprint).toBe('J84lKFBiFGkQHoMEKfbVsOWqas5+mzmeHJ+E/n1Q2U8');
    // Pterodactyl's layout (phpseclib's PKCS8 text) for a key given in another form; an SPKI PEM as given, trimmed.
    const upstream = RSA_2048_SPKI.replace(/\n/g, '\r\n');
    for (const [text, pem] of [
      [RSA_2048, upstream],
      [RSA_2048_PKCS1, upstream],
      [RSA_2048_SPKI, RSA_2048_SPKI],
      [`  ${upstream}\n`, upstream],
    ]) {
      expect(key(text as string)).toEqual({
        type: 'ssh-rsa',
        fingerprint: 'HifCFXbwgAVQRORvouOosIsQPTG67TFhS6aOVBNu7/I',
        pem,
      });
    }
    expect(key(ED25519).pem).toMatch(
      /^-----BEGIN PUBLIC KEY-----\r\n(?:[A-Za-z0-9+/=]{1,64}\r\n)+-----END PUBLIC KEY-----$/,
    );
  });

  it('reads every PEM key type as its OpenSSH twin', () => {
    for (const type of ['ed25519', 'ecdsa', 'rsa'] as const) {
      const pair = sshKeyPair(type);
      const line = key(pair.public);
      const fromPem = key(pair.parsed.getPublicPEM());
      expect({ ...fromPem, pem: undefined }).toEqual({ ...line, pem: undefined });
      // The same key either way, whatever the text's layout.
      expect(createPublicKey(fromPem.pem).export({ format: 'jwk' })).toEqual(
        createPublicKey(line.pem).export({ format: 'jwk' }),
      );
    }
  });

  it('refuses private keys, DSA, short RSA and anything else', () => {
    const ed = generateKeyPairSync('ed25519');
    const dsa = generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 });
    const openSshPrivate = sshKeyPair().private;
    expect(parseSshPublicKey(ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toBe(
      'invalid',
    );
    expect(parseSshPublicKey(openSshPrivate)).toBe('invalid');
    expect(parseSshPublicKey(dsa.publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBe('dsa');
    expect(parseSshPublicKey(RSA_1024)).toBe('weak-rsa');
    for (const text of ['invalid', '', 'ssh-ed25519 AAAA', 'ssh-rsa !!!', 42, null, 'x'.repeat(20_000)]) {
      expect(parseSshPublicKey(text)).toBe('invalid');
    }
    const x25519 = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(parseSshPublicKey(x25519)).toBe('invalid');
  });
});
