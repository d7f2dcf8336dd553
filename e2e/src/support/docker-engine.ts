import { request } from 'node:http';

/** Where the daemon looks for an engine: DOCKER_HOST (unix:// only here), else the default socket. */
export const DOCKER_SOCKET = (process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock').replace(
  /^unix:\/\//,
  '',
);

/** True when a Docker engine answers `GET /_ping` on DOCKER_SOCKET within 3 s. */
export function dockerEngineAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const ping = request({ socketPath: DOCKER_SOCKET, path: '/_ping', timeout: 3000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    ping.on('timeout', () => ping.destroy());
    ping.on('error', () => resolve(false));
    ping.end();
  });
}
