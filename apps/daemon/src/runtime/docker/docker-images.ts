import type Docker from 'dockerode';
import { engineMessage, engineStatus } from './docker-connection';

/** Wings' limit for one pull; a registry that stalls must not hold a start forever. */
const PULL_TIMEOUT_MS = 15 * 60 * 1000;

/** True when the engine has this image (by name:tag or id). */
export async function hasLocalImage(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch (error) {
    if (engineStatus(error) === 404) return false;
    throw error;
  }
}

/** Pulls the image to its end; rejects with the engine's or the registry's reason. */
async function pull(docker: Docker, image: string): Promise<void> {
  const abort = AbortSignal.timeout(PULL_TIMEOUT_MS);
  const stream = await docker.pull(image, { abortSignal: abort });
  await new Promise<void>((resolve, reject) => {
    // An error can also arrive inside the progress stream (`{"error": "…"}`), after a 200 response.
    docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

/**
 * Makes sure the engine has the image and returns the name to create the container from. Like Wings: an image
 * named `~name` is local only and never pulled; any other is pulled first, and a failed pull (no network, no
 * registry, rate limit) falls back to the copy the engine already has.
 */
export async function ensureImage(docker: Docker, image: string): Promise<string> {
  if (image.startsWith('~')) {
    const local = image.slice(1);
    if (await hasLocalImage(docker, local)) return local;
    throw new Error(
      `The image ${local} is marked local only (~) and this machine's Docker engine does not have it.`,
    );
  }
  try {
    await pull(docker, image);
    return image;
  } catch (error) {
    if (await hasLocalImage(docker, image)) return image;
    throw new Error(
      `The image ${image} could not be pulled and there is no local copy: ${engineMessage(error)}`,
    );
  }
}
