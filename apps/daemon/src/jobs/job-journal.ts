import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** The jobs that write into a server's files under temporary names. */
export type JobKind = 'archive' | 'decompress' | 'restore' | 'pull';

/** Where a job's unfinished output lies: names starting with `prefix` in `directory` (and below it, if recursive). */
export interface JobLeftovers {
  /** Path components from the server's root. */
  directory: readonly string[];
  prefix: string;
  recursive: boolean;
}

export interface JobRecord {
  id: string;
  kind: JobKind;
  server: string;
  startedAt: string;
  leftovers: JobLeftovers;
}

/** A job's entry in the journal: ended when the job is over, whatever its outcome. */
export interface JournalEntry {
  readonly prefix: string;
  /**
   * Called once output was written under a temporary name, before it is renamed into place: nothing in
   * production; crash tests (AERIE_TEST_PAUSE_JOB=<kind>) stop the job here for good, then kill the daemon.
   */
  checkpoint(): Promise<void>;
  end(): Promise<void>;
}

/** What a server's filesystem records its jobs with (the journal, bound to the server). */
export interface ServerJobs {
  begin(kind: JobKind, at: Omit<JobLeftovers, 'prefix'>): Promise<JournalEntry>;
}

const JOB_KINDS: readonly JobKind[] = ['archive', 'decompress', 'restore', 'pull'];

/** The hidden names a job writes under until its output is whole. */
export const TEMPORARY_PREFIX = '.aerie-partial-';

const recordSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  kind: z.enum(['archive', 'decompress', 'restore', 'pull']),
  server: z.string().max(64),
  startedAt: z.string().max(64),
  leftovers: z.object({
    directory: z.array(z.string().min(1).max(255)).max(4096),
    prefix: z.string().startsWith(TEMPORARY_PREFIX).max(64),
    recursive: z.boolean(),
  }),
});

/**
 * The daemon's record of jobs that are running, one file each under `DATA_DIR/jobs`, written (and synced) before a
 * job writes anything and removed once it has ended. A daemon that boots finds there exactly the jobs a crash
 * interrupted, and removes what they left half-written. Jobs the panel tracks (installs, backups, restores) are
 * also failed by the panel's reset at boot; this journal is about the files.
 */
export class JobJournal {
  readonly #directory: string;
  readonly #pauseAt: JobKind | undefined;

  constructor(directory: string, options: { pauseAt?: string | undefined } = {}) {
    this.#directory = directory;
    const pauseAt = options.pauseAt;
    this.#pauseAt = JOB_KINDS.find((kind) => kind === pauseAt);
  }

  /** The journal as one server's filesystem uses it. */
  forServer(server: string): ServerJobs {
    return { begin: (kind, at) => this.begin(server, kind, at) };
  }

  async begin(server: string, kind: JobKind, at: Omit<JobLeftovers, 'prefix'>): Promise<JournalEntry> {
    const id = randomBytes(8).toString('hex');
    const prefix = `${TEMPORARY_PREFIX}${id}`;
    const record: JobRecord = {
      id,
      kind,
      server,
      startedAt: new Date().toISOString(),
      leftovers: { ...at, directory: [...at.directory], prefix },
    };
    await fs.mkdir(this.#directory, { recursive: true, mode: 0o700 });
    const file = this.#file(id);
    const temporary = `${file}.new`;
    const handle = await fs.open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(record));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
    const paused = this.#pauseAt === kind;
    return {
      prefix,
      checkpoint: () => (paused ? new Promise<void>(() => {}) : Promise.resolve()),
      end: () => fs.rm(file, { force: true }),
    };
  }

  /** The jobs a previous daemon left running (unreadable entries are dropped: they name nothing safely). */
  async interrupted(): Promise<JobRecord[]> {
    const names = await fs.readdir(this.#directory).catch(() => [] as string[]);
    const records: JobRecord[] = [];
    for (const name of names) {
      const file = path.join(this.#directory, name);
      if (!name.endsWith('.json')) {
        await fs.rm(file, { force: true });
        continue;
      }
      const parsed = recordSchema.safeParse(
        await fs
          .readFile(file, 'utf8')
          .then((text) => JSON.parse(text) as unknown)
          .catch(() => undefined),
      );
      if (parsed.success) records.push(parsed.data);
      else await fs.rm(file, { force: true });
    }
    return records;
  }

  /** Forgets a job once its leftovers are gone. */
  async forget(id: string): Promise<void> {
    await fs.rm(this.#file(id), { force: true });
  }

  #file(id: string): string {
    return path.join(this.#directory, `${id}.json`);
  }
}

/** Jobs of a filesystem opened outside a daemon (tests, tools): unique temporary names, nothing recorded. */
export const unjournaledJobs: ServerJobs = {
  async begin() {
    const prefix = `${TEMPORARY_PREFIX}${randomBytes(8).toString('hex')}`;
    return { prefix, checkpoint: async () => {}, end: async () => {} };
  },
};
