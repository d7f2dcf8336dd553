import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software for the API tests: it makes P-256 (ES256) credentials with "none"
 * attestation and signs assertions exactly as a platform authenticator does (authenticator data, then the hash of
 * the client data), so the panel's real verification runs on what it receives. The browser side (client data,
 * origin) is played here too; the end-to-end tests use Chromium's own virtual authenticator instead.
 */
export class SoftwareAuthenticator {
  readonly #credentials = new Map<string, { key: KeyObject; userHandle: string; counter: number }>();

  constructor(
    /** The origin the "browser" reports, e.g. `http://panel.test`. */
    readonly origin: string,
    readonly options: { userVerified?: boolean; counterStep?: number } = {},
  ) {}

  get rpId(): string {
    return new URL(this.origin).hostname;
  }

  /** Answers `navigator.credentials.create()` for the panel's creation options JSON. */
  create(creationOptions: {
    challenge: string;
    rp: { id?: string };
    user: { id: string };
  }): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(32);
    const id = isoBase64URL.fromBuffer(credentialId);
    this.#credentials.set(id, { key: privateKey, userHandle: creationOptions.user.id, counter: 0 });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
        [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      this.#authDataHead(creationOptions.rp.id ?? this.rpId, 0x40, 0),
      Buffer.alloc(16),
      idLength,
      credentialId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientDataJSON = this.#clientData('webauthn.create', creationOptions.challenge);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(new Uint8Array(clientDataJSON)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * Answers `navigator.credentials.get()` with the credential `id` (the only one it holds, by default).
   * @param overrides what a hostile or broken browser would change: another origin, challenge or RP ID
   */
  get(
    requestOptions: { challenge: string; rpId?: string },
    id: string = [...this.#credentials.keys()][0] ?? '',
    overrides: { origin?: string; challenge?: string; rpId?: string; counter?: number } = {},
  ): Record<string, unknown> {
    const credential = this.#credentials.get(id);
    if (!credential) throw new Error(`no credential ${id}`);
    credential.counter = overrides.counter ?? credential.counter + (this.options.counterStep ?? 1);
    const authData = this.#authDataHead(
      overrides.rpId ?? requestOptions.rpId ?? this.rpId,
      0,
      credential.counter,
    );
    const clientDataJSON = this.#clientData(
      'webauthn.get',
      overrides.challenge ?? requestOptions.challenge,
      overrides.origin,
    );
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(new Uint8Array(clientDataJSON)),
        authenticatorData: isoBase64URL.fromBuffer(new Uint8Array(authData)),
        signature: isoBase64URL.fromBuffer(new Uint8Array(sign('sha256', signed, credential.key))),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** rpIdHash, flags (user present, verified unless told otherwise, plus `extraFlags`), signature counter. */
  #authDataHead(rpId: string, extraFlags: number, counter: number): Buffer {
    const flags = 0x01 | (this.options.userVerified === false ? 0 : 0x04) | extraFlags;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count]);
  }

  #clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
