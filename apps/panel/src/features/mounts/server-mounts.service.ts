import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, serverActivity } from '@aerie/panel/features/activity/activity-log';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import type { ServerRecord } from '@aerie/panel/features/servers/server-record';
import { displayError } from '@aerie/panel/http/errors';
import { serverMountMessages } from '@aerie/shared/mounts/mounts-wire';
import type { Mount } from './mount';
import {
  attachToMount,
  detachFromMount,
  mountIdsOfServer,
  mountsAllowedForServer,
} from './mounts.repository';

/** A mount as a server's users see it: whether the server uses it. */
export interface ServerMount {
  mount: Mount;
  attached: boolean;
}

/**
 * The mounts of a server as its users see them (client API): those on its egg and node that users may attach,
 * and those an administrator attached. Users attach and detach only the first kind; it takes effect at the next
 * start, when the daemon reads the configuration again.
 */
export class ServerMountsService {
  constructor(private readonly deps: { db: Db; activity: ActivityLog }) {}

  async list(server: ServerRecord): Promise<ServerMount[]> {
    const [allowed, attached] = await Promise.all([
      mountsAllowedForServer(this.deps.db, server),
      mountIdsOfServer(this.deps.db, server.id),
    ]);
    return allowed
      .filter((mount) => mount.userMountable || attached.has(mount.id))
      .map((mount) => ({ mount, attached: attached.has(mount.id) }));
  }

  /** One of `list`'s mounts by uuid; undefined when the server's users cannot see it (404). */
  async find(server: ServerRecord, uuid: string): Promise<ServerMount | undefined> {
    return (await this.list(server)).find((entry) => entry.mount.uuid === uuid);
  }

  /** Attaches a user-mountable mount; attaching one already attached changes nothing and logs nothing. */
  async attach(access: ServerAccess, { mount, attached }: ServerMount): Promise<void> {
    if (attached) return;
    await this.deps.db.transaction().execute(async (tx) => {
      await attachToMount(tx, 'servers', mount.id, [access.server.id]);
      await this.deps.activity.record(tx, {
        event: 'server:mount.attach',
        ...serverActivity(access),
        properties: { name: mount.name, target: mount.target },
      });
    });
  }

  /** @throws HttpError 400 for a mount only an administrator may detach */
  async detach(access: ServerAccess, { mount, attached }: ServerMount): Promise<void> {
    if (!mount.userMountable) throw displayError(serverMountMessages.notUserMountable);
    if (!attached) return;
    await this.deps.db.transaction().execute(async (tx) => {
      if (!(await detachFromMount(tx, 'servers', mount.id, access.server.id))) return;
      await this.deps.activity.record(tx, {
        event: 'server:mount.detach',
        ...serverActivity(access),
        properties: { name: mount.name, target: mount.target },
      });
    });
  }
}
