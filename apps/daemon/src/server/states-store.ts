import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { ServerState } from './console-server';

const STATES: readonly ServerState[] = ['offline', 'starting', 'running', 'stopping'];

/**
 * `states.json`: uuid → last state, so a daemon restart starts again what was running (Wings §2.7). Each change
 * schedules one write within `debounceMs`; writes go to a temporary file renamed over the old one, so a crash
 * mid-write never leaves half a file.
 */
export class StatesStore {
  readonly #file: string;
  readonly #debounceMs: number;
  readonly #states = new Map<string, ServerState>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(file: string, options: { debounceMs?: number } = {}) {
    this.#file = file;
    // A crash right after a change must not lose it: the next daemon brings each server back to this state. Changes
    // made in one turn still share a write, and writes never overlap.
    this.#debounceMs = options.debounceMs ?? 0;
  }

  /** The states the last daemon left; an unreadable or missing file means none. */
  async load(): Promise<ReadonlyMap<string, ServerState>> {
    const text = await readFile(this.#file, 'utf8').catch(() => '{}');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {};
    }
    const states = new Map<string, ServerState>();
    if (parsed && typeof parsed === 'object') {
      for (const [uuid, state] of Object.entries(parsed)) {
        if (STATES.includes(state as ServerState)) states.set(uuid, state as ServerState);
      }
    }
    return states;
  }

  set(uuid: string, state: ServerState): void {
    this.#states.set(uuid, state);
    this.#schedule();
  }

  delete(uuid: string): void {
    this.#states.delete(uuid);
    this.#schedule();
  }

  /** Writes now (and waits for any write under way); used on shutdown. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const snapshot = JSON.stringify(Object.fromEntries(this.#states), null, 2);
    // A failed write (a full disk) must not fail every later one: each write starts from a settled chain.
    const write = this.#writing.catch(() => undefined).then(() => this.#write(snapshot));
    this.#writing = write;
    await write;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch(() => {});
    }, this.#debounceMs);
    this.#timer.unref();
  }

  async #write(snapshot: string): Promise<void> {
    const temporary = `${this.#file}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, `${snapshot}\n`, { mode: 0o600 });
      await rename(temporary, this.#file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }
}
