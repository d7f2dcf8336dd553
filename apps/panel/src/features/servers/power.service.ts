import { type DaemonClient, DaemonResponseError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError, relayDaemonErrors } from '@aerie/panel/daemon-client/daemon-http-error';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { HttpError } from '@aerie/panel/http/errors';
import type { PowerSignal } from './power-signal';
import type { ServerRecord } from './server-record';

export const notOnlineMessage = 'Server must be online in order to send commands.';

/** What a power signal or a command is sent to: the server and the node its daemon runs on. */
export interface ServerTarget {
  server: Pick<ServerRecord, 'uuid'>;
  node: Pick<NodeRecord, 'name' | 'scheme' | 'fqdn' | 'daemonListen' | 'daemonToken'>;
}

/**
 * Power signals and console commands, relayed to the server's daemon as Wings' `power {action}` and
 * `commands {commands:[…]}`. Called by the client routes and by the schedule worker alike, so a task does exactly
 * what the button does; permissions and the activity log are the caller's.
 */
export class PowerService {
  constructor(private readonly daemon: DaemonClient) {}

  /**
   * @throws HttpError DaemonConnectionException with the daemon's status (502 when it cannot be reached)
   */
  async power({ server, node }: ServerTarget, signal: PowerSignal): Promise<void> {
    await relayDaemonErrors(this.daemon.forServer(node, server.uuid).power(signal));
  }

  /**
   * @throws HttpError 502 HttpException `notOnlineMessage` when the server is not running; any other daemon
   *   failure as DaemonConnectionException
   */
  async command({ server, node }: ServerTarget, command: string): Promise<void> {
    try {
      await this.daemon.forServer(node, server.uuid).commands([command]);
    } catch (error) {
      // Wings answers 502 when the server is not running (older daemons say so in the message instead).
      if (
        error instanceof DaemonResponseError &&
        (error.status === 502 || /not running/i.test(error.message))
      ) {
        throw new HttpError(502, 'HttpException', notOnlineMessage);
      }
      throw daemonHttpError(error);
    }
  }
}
