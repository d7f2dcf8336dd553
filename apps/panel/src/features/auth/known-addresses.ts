import { keyedHash } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import {
  deleteSignInAddressesUsedBefore,
  hasSignInAddress,
  insertSignInAddress,
  touchSignInAddress,
} from './auth.repository';
import { throttleAddress } from './password-recheck';

/** An address not used to sign in for this long is forgotten. */
export const KNOWN_ADDRESS_TTL_MS = 180 * 24 * 60 * 60 * 1000;

/**
 * How the account got in from an address: a completed web sign-in (password and, when on, 2FA), or an SFTP login
 * (password or key alone, SFTP asks no 2FA). Kept apart so that an SFTP login never spares the web's 2FA step
 * the slow-down.
 */
export type SignInDoor = 'web' | 'sftp';

/**
 * The addresses each user completed a sign-in from (table `sign_in_addresses`, in the database so every panel
 * process knows them): the per-account slow-down never applies from one of them. An address is kept as a keyed
 * hash of its throttle form (an IPv6 address by its /64) and the door, for 180 days after its last sign-in.
 */
export class KnownAddresses {
  constructor(private readonly deps: { db: Db; appKey: Buffer; clock: () => Date }) {}

  /**
   * Whether `userId` got in from `ip` before through one of `doors` (an unknown account, `undefined`, costs the
   * same query).
   */
  async has(
    userId: number | undefined,
    ip: string,
    doors: readonly SignInDoor[] = ['web'],
  ): Promise<boolean> {
    const since = new Date(this.deps.clock().getTime() - KNOWN_ADDRESS_TTL_MS);
    return hasSignInAddress(
      this.deps.db,
      userId ?? 0,
      doors.map((door) => this.#hash(ip, door)),
      since,
    );
  }

  async remember(userId: number, ip: string, door: SignInDoor = 'web'): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock();
    const addressHash = this.#hash(ip, door);
    if (await touchSignInAddress(db, userId, addressHash, now)) return;
    try {
      await insertSignInAddress(db, userId, addressHash, now);
    } catch (error) {
      // Another request (or MySQL's "0 rows changed" for the same instant) got there first: it is known.
      if (!isUniqueViolation(error)) throw error;
    }
    await deleteSignInAddressesUsedBefore(db, userId, new Date(now.getTime() - KNOWN_ADDRESS_TTL_MS));
  }

  #hash(ip: string, door: SignInDoor): string {
    // The web's hashes keep their original form, so the addresses known before SFTP logins counted stay known.
    const purpose = door === 'web' ? 'sign-in-address' : 'sftp-address';
    return keyedHash(this.deps.appKey, `${purpose}|${throttleAddress(ip)}`);
  }
}
