import path from 'node:path';
import { holderSocketPath } from './process/holder/holder-socket';
import type { AllowedDestination } from './process/network/game-network-plan';
import { ProcessDriver } from './process/process-driver';
import { ProcessSandbox } from './process/sandbox/process-sandbox';
import type { RuntimeDriver } from './runtime';

/** The driver named by RUNTIME. Docker is loaded only when asked for, so the process runtime never loads dockerode. */
export async function loadRuntimeDriver(
  name: 'process' | 'process-unsafe' | 'docker',
  dataDirectory: string,
  options: { allowedDestinations?: readonly AllowedDestination[] } = {},
): Promise<RuntimeDriver> {
  const tmpDirectory = path.join(dataDirectory, 'tmp');
  if (name !== 'docker') {
    const runDirectory = path.join(dataDirectory, 'run');
    // Said at start-up, not at the first server start: a data directory too deep for the holders' sockets.
    holderSocketPath(runDirectory, '00000000-0000-0000-0000-000000000000');
    const sandbox = await ProcessSandbox.detect({
      dataDirectory,
      unsafe: name === 'process-unsafe',
      allowedDestinations: options.allowedDestinations,
    });
    return new ProcessDriver({ tmpDirectory, runDirectory, sandbox });
  }
  let module: { DockerDriver?: new (options: { tmpDirectory: string }) => RuntimeDriver };
  try {
    // A variable specifier: the docker runtime is built alongside and may not be there yet.
    const specifier = './docker/docker-driver';
    module = (await import(specifier)) as typeof module;
  } catch (error) {
    throw new Error(
      `RUNTIME=docker, but the docker runtime could not be loaded (${error instanceof Error ? error.message : String(error)}). Use RUNTIME=process.`,
    );
  }
  if (!module.DockerDriver) throw new Error('RUNTIME=docker, but the docker runtime has no DockerDriver.');
  return new module.DockerDriver({ tmpDirectory });
}
