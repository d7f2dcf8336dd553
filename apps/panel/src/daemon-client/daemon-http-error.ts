import { HttpError } from '@aerie/panel/http/errors';
import { DaemonResponseError, DaemonUnreachableError } from './daemon-client';

export const daemonMessages = {
  unreachable: 'Could not establish a connection to the machine running this server. Please try again.',
  // Wings' messages often end in a period already: one is enough.
  remoteError: (message: string) => `An error occurred on the remote host: ${message.replace(/\.+$/, '')}.`,
} as const;

/**
 * A failed daemon call as the client API reports it (Pterodactyl's DaemonConnectionException): the daemon's
 * own status for its error answers (a 2xx or 3xx that failed counts as 502), and 502 when it cannot be reached.
 * Any other error is returned as it is.
 */
export function daemonHttpError(error: unknown): unknown {
  if (error instanceof DaemonUnreachableError) {
    return new HttpError(502, 'DaemonConnectionException', daemonMessages.unreachable);
  }
  if (error instanceof DaemonResponseError) {
    const status = error.status >= 400 ? error.status : 502;
    return new HttpError(status, 'DaemonConnectionException', daemonMessages.remoteError(error.message));
  }
  return error;
}

/** Awaits a daemon call, reporting its failure as `daemonHttpError` does. */
export const relayDaemonErrors = <T>(call: Promise<T>): Promise<T> =>
  call.catch((error: unknown) => {
    throw daemonHttpError(error);
  });
