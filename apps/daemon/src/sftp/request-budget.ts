/**
 * The requests (and bytes of write data) one SFTP channel has in progress. Past either limit the connection is
 * paused (its socket is not read, so the client's next requests wait in its own buffers, not in the daemon's
 * memory); it is read again once both are down to half.
 */
export class RequestBudget {
  #requests = 0;
  #writeBytes = 0;
  #paused = false;

  constructor(
    private readonly limits: { maxRequestsInFlight: number; maxWriteBytesInFlight: number },
    private readonly connection: { pause(): void; resume(): void },
  ) {}

  get inFlight(): number {
    return this.#requests;
  }

  take(writeBytes: number): void {
    this.#requests++;
    this.#writeBytes += writeBytes;
    const over =
      this.#requests >= this.limits.maxRequestsInFlight ||
      this.#writeBytes >= this.limits.maxWriteBytesInFlight;
    if (over && !this.#paused) {
      this.#paused = true;
      this.connection.pause();
    }
  }

  give(writeBytes: number): void {
    this.#requests--;
    this.#writeBytes -= writeBytes;
    const underHalf =
      this.#requests <= this.limits.maxRequestsInFlight / 2 &&
      this.#writeBytes <= this.limits.maxWriteBytesInFlight / 2;
    if (underHalf) this.release();
  }

  /** Reads the connection again if this budget paused it (also when the channel ends). */
  release(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.connection.resume();
  }
}
