import { readFile, rename, writeFile } from 'node:fs/promises';

/**
 * First uid (and gid) given to a server when the daemon runs as root. Far above the ranges Debian gives users
 * (1000+) and their subordinate ids (/etc/subuid: 100000 + 65536 per user), so a game shares its uid with nobody.
 */
export const SERVER_UID_BASE = 2_000_000;

/**
 * `sandbox-uids.json`: uuid → uid, one unprivileged uid per server, kept across restarts so a server's files stay
 * its own. Ids are never reused: a deleted server's uid could still own files somewhere (a backup being restored).
 */
export class ServerUids {
  readonly #file: string;
  #uids: Map<string, number> | undefined;
  #saving: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** The server's uid, allocated and saved on first use. */
  async uidOf(uuid: string): Promise<number> {
    const uids = await this.#load();
    const known = uids.get(uuid);
    if (known !== undefined) return known;
    const uid = Math.max(SERVER_UID_BASE - 1, ...uids.values()) + 1;
    uids.set(uuid, uid);
    const text = `${JSON.stringify(Object.fromEntries(uids), null, 2)}\n`;
    // Saves are chained so an older map never lands after a newer one.
    this.#saving = this.#saving.then(async () => {
      const temporary = `${this.#file}.${process.pid}.tmp`;
      await writeFile(temporary, text, { mode: 0o600 });
      await rename(temporary, this.#file);
    });
    await this.#saving;
    return uid;
  }

  async #load(): Promise<Map<string, number>> {
    if (this.#uids) return this.#uids;
    const text = await readFile(this.#file, 'utf8').catch(() => '{}');
    const uids = new Map<string, number>();
    try {
      for (const [uuid, uid] of Object.entries(JSON.parse(text) as Record<string, unknown>)) {
        if (Number.isInteger(uid) && (uid as number) >= SERVER_UID_BASE) uids.set(uuid, uid as number);
      }
    } catch {
      // The file is only ever written whole (rename), so this one was edited by hand: guessing could give two
      // servers one uid.
      throw new Error(
        `${this.#file} is not valid JSON; fix or remove it (servers' files keep their owners).`,
      );
    }
    // Another call may have loaded it meanwhile; the first map wins so allocations are never lost.
    this.#uids ??= uids;
    return this.#uids;
  }
}
