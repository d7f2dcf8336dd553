import type { Db } from '@aerie/panel/db/database';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { subusersOfServers } from '@aerie/panel/features/servers/servers.repository';
import { type ActivityRecord, listActivity } from './activity.repository';
import type { ActivityListQuery } from './activity-list.query';

/** Reads the logs (reference §7.1 account activity, §7.2 server activity). */
export class ActivityService {
  constructor(
    private readonly deps: {
      db: Db;
      /** `APP_ACTIVITY_HIDE_ADMIN`: a server's log leaves out root admins who are neither its owner nor a subuser. */
      hideAdmin: boolean;
    },
  ) {}

  /** Entries about the server, except those of root admins from outside it when the panel hides them. */
  async forServer(
    access: ServerAccess,
    query: ActivityListQuery,
  ): Promise<{ records: ActivityRecord[]; total: number }> {
    const { db, hideAdmin } = this.deps;
    const { server } = access;
    let hideAdminsExcept: number[] | undefined;
    if (hideAdmin) {
      const subusers = await subusersOfServers(db, [server.id]);
      hideAdminsExcept = [server.ownerId, ...subusers.map((subuser) => subuser.userId)];
    }
    return listActivity(db, { serverId: server.id, hideAdminsExcept }, query);
  }

  /** Entries about the user's account: sign-ins, account changes, and being added to or removed from servers. */
  forAccount(user: { id: number }, query: ActivityListQuery) {
    return listActivity(this.deps.db, { subjectUserId: user.id }, query);
  }
}
