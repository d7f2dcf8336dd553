import path from 'node:path';

/** Linux's limit on a Unix socket path (sun_path), its closing NUL included. */
const SOCKET_PATH_MAX = 107;

/** Where the holder of server `uuid` answers: `<run directory>/<uuid>.sock`. */
export function holderSocketPath(runDirectory: string, uuid: string): string {
  const socket = path.join(runDirectory, `${uuid}.sock`);
  if (Buffer.byteLength(socket) > SOCKET_PATH_MAX) {
    throw new Error(
      `The daemon's run directory ${runDirectory} is too long a path for a Unix socket (at most ${SOCKET_PATH_MAX - 41} characters): set DAEMON_DATA_DIR to a shorter path.`,
    );
  }
  return socket;
}
