import type Docker from 'dockerode';
import { SERVICE_LABEL } from './container-spec';
import { engineStatus } from './docker-connection';

/** The bridge network servers join, like Wings' `pterodactyl_nw`. */
export const DEFAULT_NETWORK_NAME = 'aerie_nw';

/** True when a network of exactly this name exists (the engine's name filter also matches parts of names). */
async function networkExists(docker: Docker, name: string): Promise<boolean> {
  const networks = await docker.listNetworks({ filters: { name: [name] } });
  return networks.some((network) => network.Name === name);
}

/** Creates the servers' bridge network unless it exists; a concurrent creation by someone else is fine too. */
export async function ensureNetwork(docker: Docker, name: string): Promise<void> {
  if (['bridge', 'host', 'none'].includes(name) || (await networkExists(docker, name))) return;
  try {
    await docker.createNetwork({
      Name: name,
      Driver: 'bridge',
      CheckDuplicate: true,
      Labels: { ...SERVICE_LABEL },
    });
  } catch (error) {
    if (engineStatus(error) === 409 && (await networkExists(docker, name))) return;
    throw error;
  }
}
