import { keyedHash } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
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
    const row = await this.deps.db
      .selectFrom('sign_in_addresses')
      .select('user_id')
      .where('user_id', '=', userId ?? 0)
      .where(
        'address_hash',
        'in',
        doors.map((door) => this.#hash(ip, door)),
      )
      .where('last_used_at', '>', since)
      .executeTakeFirst();
    return row !== undefined;
  }

  async remember(userId: number, ip: string, door: SignInDoor = 'web'): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock();
    const addressHash = this.#hash(ip, door);
    const updated = await db
      .updateTable('sign_in_addresses')
      .set({ last_used_at: now })
      .where('user_id', '=', userId)
      .where('address_hash', '=', addressHash)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    try {
      await db
        .insertInto('sign_in_addresses')
        .values({ user_id: userId, address_hash: addressHash, last_used_at: now })
        .execute();
    } catch (error) {
      // Another request (or MySQL's "0 rows changed" for the same instant) got there first: it is known.
      if (!isUniqueViolation(error)) throw error;
    }
    await db
      .deleteFrom('sign_in_addresses')
      .where('user_id', '=', userId)
      .where('last_used_at', '<', new Date(now.getTime() - KNOWN_ADDRESS_TTL_MS))
      .execute();
  }

  #hash(ip: string, door: SignInDoor): string {
    // The web's hashes keep their original form, so the addresses known before SFTP logins counted stay known.
    const purpose = door === 'web' ? 'sign-in-address' : 'sftp-address';
    return keyedHash(this.deps.appKey, `${purpose}|${throttleAddress(ip)}`);
  }
}
