import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { chownTreeNoFollow } from '@aerie/daemon/fs/ownership';
import { forwardLines } from '@aerie/daemon/runtime/process/line-splitter';
import type {
  AdoptedRuntime,
  InstallOptions,
  RuntimeDriver,
  RuntimeStartOptions,
  ServerRuntime,
} from '@aerie/daemon/runtime/runtime';
import type Docker from 'dockerode';
import { type ContainerSettings, installerContainerSpec } from './container-spec';
import { defaultContainerUser, numericUser } from './container-user';
import { dockerFromHost, engineAddress, explainEngineError, ignoringGone } from './docker-connection';
import { ensureImage } from './docker-images';
import { DEFAULT_NETWORK_NAME, ensureNetwork } from './docker-network';
import { DockerRuntime } from './docker-runtime';

/** How the daemon runs servers in Docker (Wings' `docker:` settings, Aerie's defaults). */
export interface DockerDriverOptions {
  /** An engine client to use; otherwise one is made for `dockerHost`. */
  docker?: Docker;
  /** The engine, written like DOCKER_HOST (`unix:///run/docker.sock`, `tcp://host:2375`); default DOCKER_HOST, then /var/run/docker.sock. */
  dockerHost?: string;
  /** The bridge network servers join, created when missing; default `aerie_nw`. */
  networkName?: string;
  /** `uid:gid` servers run as; default the daemon's own, or 988:988 when the daemon is root. */
  containerUser?: string;
  /** Size of each container's /tmp in MB; default 100. */
  tmpfsSizeMb?: number;
  /** Most processes a server may run; default 512. */
  pidsLimit?: number;
  /** Where install scripts are written for the installer to mount (the daemon's `tmp/`); default the OS's. */
  tmpDirectory?: string;
  /** Extra labels on every container Aerie creates (e.g. to tell test runs apart); Aerie's own always win. */
  labels?: Readonly<Record<string, string>>;
}

/** Runs servers and install scripts in Docker containers through the engine's API. */
export class DockerDriver implements RuntimeDriver {
  readonly name = 'docker';
  readonly docker: Docker;
  readonly #settings: ContainerSettings;
  readonly #tmpDirectory: string;
  #network: Promise<void> | undefined;

  constructor(options: DockerDriverOptions = {}) {
    this.docker = options.docker ?? dockerFromHost(options.dockerHost);
    this.#settings = {
      user: options.containerUser ?? defaultContainerUser(),
      networkName: options.networkName ?? DEFAULT_NETWORK_NAME,
      tmpfsSizeMb: options.tmpfsSizeMb ?? 100,
      pidsLimit: options.pidsLimit ?? 512,
      labels: options.labels ?? {},
    };
    this.#tmpDirectory = options.tmpDirectory ?? tmpdir();
  }

  createRuntime(): ServerRuntime {
    return new DockerRuntime(this.#runtimeContext());
  }

  /**
   * Re-attaches to the server's container if it still runs. An installer container left by a daemon that died
   * mid-install is removed: the panel marks that install failed when the daemon boots.
   */
  async adopt(uuid: string): Promise<AdoptedRuntime | undefined> {
    try {
      await ignoringGone(this.docker.getContainer(`${uuid}_installer`).remove({ force: true }));
      return await DockerRuntime.adopt(this.#runtimeContext(), uuid);
    } catch (error) {
      throw explainEngineError(error, engineAddress(this.docker));
    }
  }

  #runtimeContext() {
    return {
      docker: this.docker,
      settings: this.#settings,
      prepare: (options: RuntimeStartOptions) => this.#prepareStart(options),
    };
  }

  async install(options: InstallOptions): Promise<{ exitCode: number }> {
    if (options.signal?.aborted) return { exitCode: 1 };
    try {
      return await this.#install(options);
    } catch (error) {
      throw explainEngineError(error, engineAddress(this.docker));
    }
  }

  async #install(options: InstallOptions): Promise<{ exitCode: number }> {
    const name = `${options.uuid}_installer`;
    await ignoringGone(this.docker.getContainer(name).remove({ force: true }));
    const image = await ensureImage(this.docker, options.image);
    await this.#ensureNetwork();
    await mkdir(this.#tmpDirectory, { recursive: true });
    const scriptDirectory = await mkdtemp(path.join(this.#tmpDirectory, `${options.uuid}-install-`));
    try {
      await writeFile(path.join(scriptDirectory, 'install.sh'), options.script, { mode: 0o755 });
      const container = await this.docker.createContainer(
        installerContainerSpec(options, image, scriptDirectory, this.#settings),
      );
      return await this.#runInstaller(container, options);
    } finally {
      await ignoringGone(this.docker.getContainer(name).remove({ force: true }));
      await rm(scriptDirectory, { recursive: true, force: true });
    }
  }

  async destroy(uuid: string): Promise<void> {
    await ignoringGone(this.docker.getContainer(uuid).remove({ force: true }));
    await ignoringGone(this.docker.getContainer(`${uuid}_installer`).remove({ force: true }));
  }

  async #runInstaller(container: Docker.Container, options: InstallOptions): Promise<{ exitCode: number }> {
    // dockerode types it as a bare NodeJS stream; it is the HTTP response, a Readable.
    const stream = (await container.attach({
      stream: true,
      stdout: true,
      stderr: true,
    })) as unknown as Readable;
    stream.on('error', () => {});
    const output = forwardLines(stream, options.onOutput);
    const kill = () => void ignoringGone(container.kill({ signal: 'SIGKILL' })).catch(() => {});
    options.signal?.addEventListener('abort', kill, { once: true });
    try {
      await container.start();
      if (options.signal?.aborted) kill();
      const { StatusCode } = (await container.wait()) as { StatusCode: number };
      await output;
      return { exitCode: StatusCode };
    } finally {
      options.signal?.removeEventListener('abort', kill);
      stream.destroy();
    }
  }

  async fileOwner(_uuid: string): Promise<{ uid: number; gid: number } | undefined> {
    const user = numericUser(this.#settings.user);
    return user && user.uid !== 0 && process.getuid?.() === 0 ? user : undefined;
  }

  /** Before each server start: the network exists, and (daemon as root) the files are the container user's. */
  async #prepareStart(options: RuntimeStartOptions): Promise<void> {
    await this.#ensureNetwork();
    const user = numericUser(this.#settings.user);
    if (user && user.uid !== 0 && process.getuid?.() === 0)
      await chownTreeNoFollow(options.directory, user.uid, user.gid);
  }

  /** Checked once per driver; a failed check is tried again at the next start. */
  #ensureNetwork(): Promise<void> {
    this.#network ??= ensureNetwork(this.docker, this.#settings.networkName).catch((error: unknown) => {
      this.#network = undefined;
      throw error;
    });
    return this.#network;
  }
}
