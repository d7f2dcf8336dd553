import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError } from '@aerie/panel/daemon-client/daemon-http-error';
import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, serverActivity } from '@aerie/panel/features/activity/activity-log';
import { syncServerQuietly } from '@aerie/panel/features/servers/daemon-sync';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { eggDockerImages } from '@aerie/panel/features/servers/server-egg-images';
import { updateServerRow } from '@aerie/panel/features/servers/servers.repository';
import { badRequest } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import type { Log } from '@aerie/panel/logging/log';
import { serverSettingsMessages } from '@aerie/shared/server-settings/server-settings-bodies';

/**
 * Docker image references as upstream accepts them from users (`ghcr.io/org/image:tag`, with its `name|~image`
 * form); anything else is refused before it is compared with the egg's list.
 */
const DOCKER_IMAGE = /^[\w#./\- ]*\|?~?[\w./\-:@ ]*$/;

/** The Settings page's verbs (reference §7.2 "Startup and settings"): rename, reinstall, switch the image. */
export class ServerSettingsService {
  constructor(
    private readonly deps: {
      db: Db;
      daemon: DaemonClient;
      clock: () => Date;
      log: Log;
      activity: ActivityLog;
    },
  ) {}

  /**
   * Renames the server; an absent description stays, a null one becomes empty. The daemon is told. Each value
   * that changed is logged (`server:settings.rename`, `server:settings.description`, both {old, new}).
   */
  async rename(access: ServerAccess, input: { name: string; description?: string | null }): Promise<void> {
    const { server } = access;
    const description = input.description !== undefined ? (input.description ?? '') : server.description;
    await this.deps.db.transaction().execute(async (tx) => {
      await updateServerRow(tx, server.id, { name: input.name, description, updated_at: this.deps.clock() });
      if (input.name !== server.name) {
        await this.deps.activity.record(tx, {
          event: 'server:settings.rename',
          ...serverActivity(access),
          properties: { old: server.name, new: input.name },
        });
      }
      if (description !== server.description) {
        await this.deps.activity.record(tx, {
          event: 'server:settings.description',
          ...serverActivity(access),
          properties: { old: server.description, new: description },
        });
      }
    });
    await syncServerQuietly(this.deps, access.node, server.uuid);
  }

  /**
   * Marks the server installing and has its daemon run the egg's install script again; the status goes back when
   * the daemon refuses or cannot be reached, so the server is never left blocked by a reinstall that never began.
   * A reinstall the daemon began is logged (`server:reinstall`).
   */
  async reinstall(access: ServerAccess): Promise<void> {
    const { server } = access;
    await this.#setStatus(server.id, 'installing');
    try {
      await this.deps.daemon.forServer(access.node, server.uuid).reinstall();
    } catch (error) {
      await this.#setStatus(server.id, server.status);
      throw daemonHttpError(error);
    }
    await this.deps.activity.record(this.deps.db, { event: 'server:reinstall', ...serverActivity(access) });
  }

  /**
   * Switches the server to another image its egg offers (logged as `server:startup.image` {old, new}).
   * @throws HttpError 422 for an image the egg does not offer; 400 when an administrator set an image the egg
   *   does not offer (the user may not undo that)
   */
  async setDockerImage(access: ServerAccess, image: string): Promise<void> {
    const { server } = access;
    const offered = Object.values(await eggDockerImages(this.deps.db, server.eggId));
    if (!DOCKER_IMAGE.test(image)) throw fieldRuleFailed('docker_image', 'regex');
    if (!offered.includes(image)) throw fieldRuleFailed('docker_image', 'in');
    if (!offered.includes(server.image)) throw badRequest(serverSettingsMessages.dockerImageManual);
    await this.deps.db.transaction().execute(async (tx) => {
      await updateServerRow(tx, server.id, { image, updated_at: this.deps.clock() });
      if (image !== server.image) {
        await this.deps.activity.record(tx, {
          event: 'server:startup.image',
          ...serverActivity(access),
          properties: { old: server.image, new: image },
        });
      }
    });
    await syncServerQuietly(this.deps, access.node, server.uuid);
  }

  async #setStatus(serverId: number, status: string | null) {
    await updateServerRow(this.deps.db, serverId, { status, updated_at: this.deps.clock() });
  }
}
