import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/** Longest `unique_id` kept (the panel sends 16 characters): an id is a key in a file, not a payload. */
const MAX_ID_LENGTH = 128;
/** Kept this long past `exp`, so a daemon clock stepped back a little cannot revive a used token. */
const KEEP_AFTER_EXPIRY_SECONDS = 300;

/**
 * One-time use of signed URLs across daemon restarts (Wings keeps the ids in memory, so a restart re-opens every
 * link used in the last 15 minutes). Used ids live in a small JSON file `{ "<unique_id>": <exp> }`, written
 * atomically (temporary file, then rename) before the request is served, and pruned once expired.
 */
export class UsedTokenStore {
  readonly #file: string;
  readonly #now: () => number;
  #used: Promise<Map<string, number>> | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(file: string, options: { now?: () => number } = {}) {
    this.#file = file;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Marks `id` (valid until `exp`, seconds) as used; false when it already was. Resolves once the mark is on disk.
   * @throws when the file cannot be written: the caller refuses the request rather than risk a second use
   */
  async claim(id: string, exp: number): Promise<boolean> {
    if (id === '' || id.length > MAX_ID_LENGTH) return false;
    this.#used ??= this.#load();
    const used = await this.#used;
    this.#prune(used);
    // No await between the check and the set: two requests with the same id cannot both pass.
    if (used.has(id)) return false;
    used.set(id, exp);
    await this.#persist(used);
    return true;
  }

  async #load(): Promise<Map<string, number>> {
    const text = await readFile(this.#file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{}';
      throw error;
    });
    const used = new Map<string, number>();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Only a crash in the middle of the rename could leave this; what survives is better than refusing all.
      parsed = {};
    }
    if (parsed && typeof parsed === 'object') {
      for (const [id, exp] of Object.entries(parsed)) if (typeof exp === 'number') used.set(id, exp);
    }
    return used;
  }

  #prune(used: Map<string, number>): void {
    const now = this.#now() / 1000;
    for (const [id, exp] of used) if (exp + KEEP_AFTER_EXPIRY_SECONDS < now) used.delete(id);
  }

  /** Writes are queued: each one writes the whole current set, so the last to finish is complete. */
  #persist(used: Map<string, number>): Promise<void> {
    const write = async () => {
      const temporary = `${this.#file}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify(Object.fromEntries(used)), { mode: 0o600 });
        await rename(temporary, this.#file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    };
    const next = this.#writing.then(write, write);
    this.#writing = next.catch(() => undefined);
    return next;
  }
}
