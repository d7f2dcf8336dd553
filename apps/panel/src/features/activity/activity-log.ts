import type { Db } from '@aerie/panel/db/database';
import { isDiskFull } from '@aerie/panel/db/disk-full';
import type { Tx } from '@aerie/panel/db/transaction';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import type { ActivityEvent } from '@aerie/shared/activity/activity-events';
import {
  type ActivityRow,
  insertActivities,
  insertActivity,
  updateActivityProperties,
} from './activity.repository';

/** One entry of the activity log (reference §6 `activity_log`, §7.3). */
export interface ActivityEntry {
  event: ActivityEvent;
  /** Who did it: null before anyone is signed in (a failed sign-in, the 2FA step). */
  actor: { id: number } | null;
  /** The server it concerns: the entry shows in that server's log. */
  server?: { id: number } | undefined;
  /** The account it concerns: the entry shows in that user's account log (a sign-in, an invited subuser). */
  subjects?: { user?: { id: number } | undefined };
  /** What the client reads back (`{old, new}`, `{directory, files}`…); JSON values only. */
  properties?: Record<string, unknown>;
  ip: string;
  isApi: boolean;
  /** When it happened, if earlier than its recording (a node's report of what it did); else the recording time. */
  at?: Date;
}

/**
 * Records what users did. One insert per entry, made with the change's own transaction where there is one, so
 * the log holds exactly the changes that happened (Pelican's `Activity::event(…)->transaction(…)`).
 */
export class ActivityLog {
  constructor(private readonly deps: { clock: () => Date }) {}

  /** @returns the entry's id */
  record(db: Db | Tx, entry: ActivityEntry): Promise<number> {
    return insertActivity(db, activityRow(entry, entry.at ?? this.deps.clock()));
  }

  /**
   * Records a read (a file opened, a download link made). Reads keep working on a full disk, so there the entry is
   * left out rather than the read refused; any other failure still throws.
   * @returns whether the entry was stored
   */
  async recordRead(db: Db, entry: ActivityEntry): Promise<boolean> {
    try {
      await this.record(db, entry);
      return true;
    } catch (error) {
      if (isDiskFull(error)) return false;
      throw error;
    }
  }

  /** Replaces an entry's properties, for what is only known once its transaction is over (`revoked`). */
  async setProperties(db: Db, id: number, properties: Record<string, unknown>): Promise<void> {
    await updateActivityProperties(db, id, JSON.stringify(properties));
  }
}

/**
 * Many entries at once (the schedule worker's runs that end together, a node's report), 500 rows a statement; an
 * entry without its own `at` is stamped `at`.
 */
export async function recordActivities(
  db: Db | Tx,
  entries: readonly ActivityEntry[],
  at: Date,
): Promise<void> {
  for (let i = 0; i < entries.length; i += 500) {
    await insertActivities(
      db,
      entries.slice(i, i + 500).map((entry) => activityRow(entry, entry.at ?? at)),
    );
  }
}

const activityRow = (entry: ActivityEntry, timestamp: Date): ActivityRow => ({
  batch: null,
  event: entry.event,
  ip: entry.ip,
  actor_id: entry.actor?.id ?? null,
  is_api: entry.isApi,
  server_id: entry.server?.id ?? null,
  subject_user_id: entry.subjects?.user?.id ?? null,
  properties: JSON.stringify(entry.properties ?? {}),
  timestamp,
});

/** Actor, server and origin of an entry about the server a client route works on. */
export const serverActivity = (access: ServerAccess) => ({
  actor: access.user,
  server: access.server,
  ip: access.origin.ip,
  isApi: access.origin.isApi,
});

/**
 * Actor and origin of an entry about a server that no user made: a node's report, the panel's own background work
 * (the schedule worker, the backup pruner). No actor, no address.
 */
export const unattendedActivity = (server: { id: number }) => ({
  actor: null,
  server,
  ip: '',
  isApi: false,
});

/** Actor, subject and origin of an entry about the signed-in user's own account. */
export const accountActivity = (user: { id: number }, origin: RequestOrigin) => ({
  actor: user,
  subjects: { user },
  ip: origin.ip,
  isApi: origin.isApi,
});

/** Upstream's `withRequestMetadata()`: sign-in events keep the address and the browser in their properties. */
export const requestMetadata = (origin: RequestOrigin) => ({ ip: origin.ip, useragent: origin.userAgent });
