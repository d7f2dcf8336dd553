import { FilesystemError } from './filesystem-error';

/** Where a quota learns the server's limit and usage (the server manager's disk counter). */
export interface DiskCounter {
  /** Bytes allowed; 0 (or less) means unlimited, as a Pterodactyl server with disk 0. */
  limitBytes(): number;
  /** Bytes used, counted afresh when the last count is stale. */
  usedBytes(): number | Promise<number>;
  /** The last count, adjusted by every change since: what a check in the middle of a write compares. */
  currentBytes(): number;
  /** Told every change the filesystem makes, so the count stays right between walks. */
  add(deltaBytes: number): void;
}

/**
 * A server's disk allowance with reservations: bytes are reserved before they are written and settled after, so
 * parallel writes, uploads, copies and extractions together can never pass the limit (a check-then-write would let
 * twelve parallel 8 MiB writes into 20 MB). Reservations are taken in one synchronous step after the usage is
 * known, which makes them atomic per server on Node's single thread: no lock is needed.
 */
export class DiskQuota {
  readonly #counter: DiskCounter;
  #reserved = 0;

  constructor(counter: DiskCounter) {
    this.#counter = counter;
  }

  get limitBytes(): number {
    return this.#counter.limitBytes();
  }

  /** Bytes promised to writes under way. */
  get reservedBytes(): number {
    return this.#reserved;
  }

  usedBytes(): number | Promise<number> {
    return this.#counter.usedBytes();
  }

  /** Records a change that needed no reservation (a delete frees space). */
  add(deltaBytes: number): void {
    this.#counter.add(deltaBytes);
  }

  /** Bytes still free for a new reservation, or Infinity when unlimited. */
  async remainingBytes(): Promise<number> {
    if (this.limitBytes <= 0) return Number.POSITIVE_INFINITY;
    const used = await this.#counter.usedBytes();
    return Math.max(0, this.limitBytes - used - this.#reserved);
  }

  /**
   * Reserves `bytes` (after a fresh look at the usage when it is stale).
   * @throws FilesystemError EQUOTA when used + reserved + bytes would pass the limit
   */
  async reserve(bytes = 0): Promise<DiskReservation> {
    await this.#counter.usedBytes();
    const reservation = new DiskReservation(this);
    reservation.ensure(bytes);
    return reservation;
  }

  /** @internal the reservation's synchronous step: take `bytes` more or refuse. */
  take(bytes: number): void {
    if (bytes <= 0) return;
    const limit = this.limitBytes;
    if (limit > 0 && this.#counter.currentBytes() + this.#reserved + bytes > limit) {
      throw new FilesystemError('EQUOTA');
    }
    this.#reserved += bytes;
  }

  /** @internal */
  give(bytes: number): void {
    this.#reserved = Math.max(0, this.#reserved - bytes);
  }
}

/** Space held for one operation: grown as its bytes arrive, then committed as what was really written, or released. */
export class DiskReservation {
  readonly #quota: DiskQuota;
  #held = 0;
  #settled = false;

  constructor(quota: DiskQuota) {
    this.#quota = quota;
  }

  get heldBytes(): number {
    return this.#held;
  }

  /**
   * Holds at least `bytes` in all, taking the difference now.
   * @throws FilesystemError EQUOTA when that would pass the limit (what is held stays held)
   */
  ensure(bytes: number): void {
    if (this.#settled) throw new Error('This reservation is already settled.');
    if (bytes <= this.#held) return;
    this.#quota.take(bytes - this.#held);
    this.#held = bytes;
  }

  /** Gives back part of what is held (a staged upload handed over to its own write). */
  shrink(bytes: number): void {
    const given = Math.min(Math.max(0, bytes), this.#held);
    this.#quota.give(given);
    this.#held -= given;
  }

  /** The operation is done and changed the usage by `deltaBytes` (may be negative): the hold becomes real. */
  commit(deltaBytes: number): void {
    if (this.#settled) return;
    this.release();
    this.#quota.add(deltaBytes);
  }

  /** The operation wrote nothing that stays: the hold is given back. */
  release(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#quota.give(this.#held);
    this.#held = 0;
  }
}

/** A quota with no limit that keeps no count (tests, and filesystems opened without a server). */
export const unlimitedQuota = new DiskQuota({
  limitBytes: () => 0,
  usedBytes: () => 0,
  currentBytes: () => 0,
  add: () => undefined,
});
