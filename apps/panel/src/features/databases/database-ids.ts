import { hkdfSync } from 'node:crypto';
import Hashids from 'hashids';

/** Upstream's hashids settings (reference client §1.1): at least 8 characters of a–z, A–Z, 0–9. */
const MIN_LENGTH = 8;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890';
const MAX_ID = 2_147_483_647;

/**
 * Database ids on the client API are hashids (Pterodactyl's `{database}` binding); the salt, upstream's
 * HASHIDS_SALT, is derived from the app key, so ids stay the same across restarts and differ between panels.
 * A value of digits only is taken as the numeric id, as upstream takes it.
 */
export class DatabaseIds {
  readonly #hashids: Hashids;

  constructor(appKey: Buffer) {
    const salt = Buffer.from(hkdfSync('sha256', appKey, Buffer.alloc(0), 'aerie database hashids', 16));
    this.#hashids = new Hashids(salt.toString('hex'), MIN_LENGTH, ALPHABET);
  }

  encode(id: number): string {
    return this.#hashids.encode(id);
  }

  /** The numeric id a route's `{database}` names, or undefined when it names none. */
  decode(value: string | undefined): number | undefined {
    if (!value || value.length > 64) return undefined;
    if (/^\d+$/.test(value)) {
      const id = Number(value);
      return id >= 1 && id <= MAX_ID ? id : undefined;
    }
    if (!/^[A-Za-z0-9]+$/.test(value)) return undefined;
    const [id, ...rest] = this.#hashids.decode(value);
    if (rest.length > 0 || typeof id !== 'number' || id < 1 || id > MAX_ID) return undefined;
    // One number has one hashid: anything else decoding to it is not that id.
    return this.encode(id) === value ? id : undefined;
  }
}
