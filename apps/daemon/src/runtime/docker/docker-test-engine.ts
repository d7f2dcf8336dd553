import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { describe, it } from 'vitest';
import { DEFAULT_DOCKER_SOCKET, dockerFromHost } from './docker-connection';
import { hasLocalImage } from './docker-images';

/** The image the tests run (busybox, bash, node), also tagged under the demo egg's image name. */
export const TEST_IMAGE = 'aerie-test/node:local';
export const DEMO_EGG_IMAGE = 'node:20-bookworm-slim';
const BUILD_SCRIPT = fileURLToPath(new URL('../../../test-images/build-test-images.sh', import.meta.url));

/** Where the tests look for an engine: DOCKER_HOST, else the default socket. */
export const ENGINE_ADDRESS = process.env.DOCKER_HOST || `unix://${DEFAULT_DOCKER_SOCKET}`;

/** A client for the engine at ENGINE_ADDRESS, or undefined when nothing answers a ping within 3 s. */
export async function findEngine(): Promise<Docker | undefined> {
  const docker = dockerFromHost(ENGINE_ADDRESS);
  try {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), 3000);
    });
    await Promise.race([docker.ping(), timeout]).finally(() => clearTimeout(timer));
    return docker;
  } catch {
    return undefined;
  }
}

/**
 * `describe` for suites that need a real engine. Without one the suite is skipped, with the reason in its name,
 * on a developer's machine; on CI (CI=true) a failing test stands in for it, so CI can never pass with none run.
 */
export function describeWithEngine(name: string, docker: Docker | undefined, suite: () => void): void {
  if (docker) {
    describe(name, suite);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('has a Docker engine to run against', () => {
        throw new Error(`CI=true but no Docker engine answers at ${ENGINE_ADDRESS}`);
      });
    });
    return;
  }
  const reason = `no Docker engine answers at ${ENGINE_ADDRESS}`;
  console.warn(`Skipping "${name}": ${reason} (start one, or set DOCKER_HOST).`);
  describe.skip(`${name} (skipped: ${reason})`, suite);
}

/** Builds the test images with test-images/build-test-images.sh unless the engine has both tags already. */
export async function ensureTestImages(docker: Docker): Promise<void> {
  if ((await hasLocalImage(docker, TEST_IMAGE)) && (await hasLocalImage(docker, DEMO_EGG_IMAGE))) return;
  await promisify(execFile)('bash', [BUILD_SCRIPT], {
    env: { ...process.env, DOCKER_HOST: ENGINE_ADDRESS },
    timeout: 120_000,
  });
}

/** Removes every container (running or not) that carries this label value. */
export async function removeLabelled(docker: Docker, label: string, value: string): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: { label: [`${label}=${value}`] } });
  await Promise.all(containers.map((info) => docker.getContainer(info.Id).remove({ force: true })));
  return containers.length;
}

/** A TCP port nothing on this machine listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
