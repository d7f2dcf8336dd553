import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import type { Duplex, Readable } from 'node:stream';
import { forwardLines } from '@aerie/daemon/runtime/process/line-splitter';
import type {
  AdoptedRuntime,
  RuntimeEvents,
  RuntimeStartOptions,
  RuntimeUsage,
} from '@aerie/daemon/runtime/runtime';
import type Docker from 'dockerode';
import { type ContainerSettings, serverContainerSpec } from './container-spec';
import {
  engineAddress,
  engineMessage,
  engineStatus,
  explainEngineError,
  ignoringGone,
} from './docker-connection';
import { ensureImage } from './docker-images';
import { NO_USAGE, type StatsSample, usageFromStats } from './docker-stats';

/** How long usage() waits for the engine's first stats sample of a container that has just started. */
const FIRST_SAMPLE_WAIT_MS = 3000;
const TRAILING_CR = /\r+$/;
/** The lines an adopted container's log gives back: as many as a socket's `send logs` replays. */
const ADOPTED_LOG_LINES = 150;

/** What every runtime of one driver shares: the engine, the container settings, the work done before a create. */
export interface DockerRuntimeContext {
  docker: Docker;
  settings: ContainerSettings;
  /** Runs before each create: the network exists, the directory belongs to the container user. */
  prepare(options: RuntimeStartOptions): Promise<void>;
}

/**
 * One start of one server in a Docker container, the way Wings runs it: any old container of the server is
 * removed and a new one created (new image, limits and ports take effect), its TTY attached before it starts so
 * no early line is lost, its stats streamed while it runs. The exit comes once the TTY stream has ended.
 */
export class DockerRuntime extends EventEmitter<RuntimeEvents> implements AdoptedRuntime {
  readonly #context: DockerRuntimeContext;
  #started = false;
  #container: Docker.Container | undefined;
  #stdin: Duplex | undefined;
  #stats: Readable | undefined;
  #usage: RuntimeUsage | undefined;
  #firstSample: (() => void)[] = [];
  #running = false;
  #ended = false;
  /** A kill that arrived before the container was running: carried out as soon as it is. */
  #killRequested = false;
  #startedAt = 0;
  /** An adopted container waiting for follow(). */
  #adopted: Docker.Container | undefined;

  constructor(context: DockerRuntimeContext) {
    super();
    this.#context = context;
  }

  get running(): boolean {
    return this.#running;
  }

  get startedAt(): number {
    return this.#startedAt;
  }

  /**
   * The server's container left running by an earlier daemon (containers outlive it, as with Wings), or undefined
   * when it is not running. Its stdin is attached now; its output follows from follow() on.
   */
  static async adopt(context: DockerRuntimeContext, uuid: string): Promise<DockerRuntime | undefined> {
    const container = context.docker.getContainer(uuid);
    const info = await container.inspect().catch(() => undefined);
    if (!info?.State?.Running) return undefined;
    const runtime = new DockerRuntime(context);
    runtime.#started = true;
    runtime.#container = container;
    runtime.#startedAt = Date.parse(info.State.StartedAt) || Date.now();
    const stdin = (await container.attach({
      stream: true,
      stdin: true,
      stdout: false,
      stderr: false,
      hijack: true,
    })) as Duplex;
    stdin.on('error', () => {});
    // Output comes from the log below; anything the engine sends here would only repeat it.
    stdin.resume();
    runtime.#stdin = stdin;
    runtime.#running = true;
    runtime.#adopted = container;
    return runtime;
  }

  /**
   * An adopted container's output: its last lines from the engine's log (what it printed while no daemon
   * listened), then live ones, from one followed log stream, so nothing comes twice or falls between.
   */
  follow(): void {
    const container = this.#adopted;
    if (!container) return;
    this.#adopted = undefined;
    void (async () => {
      const log = (await container
        .logs({ follow: true, stdout: true, stderr: true, tail: ADOPTED_LOG_LINES })
        .catch(() => undefined)) as Readable | undefined;
      if (log) {
        log.on('error', () => {});
        await forwardLines(log, (line) => this.emit('output', line.replace(TRAILING_CR, '')));
      }
      this.#stdin?.destroy();
      await this.#finish(container);
    })();
    void this.#followStats(container);
  }

  async start(options: RuntimeStartOptions): Promise<void> {
    if (this.#started)
      throw new Error('This runtime has already been started; create a new one for each start.');
    this.#started = true;
    const { docker } = this.#context;
    const directory = await stat(options.directory).catch(() => undefined);
    if (!directory?.isDirectory())
      throw new Error(`The server directory ${options.directory} does not exist.`);
    try {
      await this.#createAndStart(options);
    } catch (error) {
      throw explainEngineError(error, engineAddress(docker));
    }
    this.#startedAt = Date.now();
    this.#running = true;
    if (this.#killRequested) this.kill();
    if (this.#container) void this.#followStats(this.#container);
  }

  /** Old container out, image ready, new container created, its TTY attached, then started. */
  async #createAndStart(options: RuntimeStartOptions): Promise<void> {
    const { docker, settings } = this.#context;
    await ignoringGone(docker.getContainer(options.uuid).remove({ force: true }));
    const image = await ensureImage(docker, options.image);
    await this.#context.prepare(options);
    const container = await docker
      .createContainer(serverContainerSpec(options, image, settings))
      .catch((error: unknown) => {
        throw engineStatus(error) === undefined
          ? error
          : new Error(`The server's container could not be created: ${engineMessage(error)}`);
      });
    this.#container = container;
    // Attached before the start: the first lines a server prints go nowhere else.
    const stream = (await container.attach({
      stream: true,
      stdin: true,
      stdout: true,
      stderr: true,
      hijack: true,
    })) as Duplex;
    this.#stdin = stream;
    stream.on('error', () => {
      // The connection broke (engine restarted): the end of the stream below ends this run.
    });
    // A TTY merges stdout and stderr into one raw stream (no multiplexing headers) and turns each \n into \r\n,
    // so a program that writes \r\n itself arrives as \r\r\n: every trailing \r goes.
    const outputDone = forwardLines(stream, (line) => this.emit('output', line.replace(TRAILING_CR, '')));
    try {
      await container.start();
    } catch (error) {
      stream.destroy();
      throw new Error(`The server's container could not start: ${engineMessage(error)}`);
    }
    void outputDone.then(() => this.#finish(container));
  }

  write(line: string): void {
    const stdin = this.#stdin;
    if (!this.#running || !stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${line}\n`);
  }

  signal(signal: NodeJS.Signals): void {
    if (this.#container && this.#running) void ignoringGone(this.#container.kill({ signal })).catch(() => {});
  }

  kill(): void {
    this.#killRequested = true;
    if (this.#container && this.#running && !this.#ended)
      void ignoringGone(this.#container.kill({ signal: 'SIGKILL' })).catch(() => {});
  }

  async usage(): Promise<RuntimeUsage> {
    if (!this.#running) return { ...NO_USAGE };
    if (!this.#usage) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          // A waiter that timed out leaves the list, so a stats stream that never answers costs nothing.
          this.#firstSample = this.#firstSample.filter((waiter) => waiter !== done);
          resolve();
        };
        const timer = setTimeout(done, FIRST_SAMPLE_WAIT_MS);
        this.#firstSample.push(done);
      });
    }
    return this.#running && this.#usage ? { ...this.#usage } : { ...NO_USAGE };
  }

  /** The engine sends a sample about every second; each holds the previous CPU counters for the delta. */
  async #followStats(container: Docker.Container): Promise<void> {
    let stream: Readable;
    try {
      stream = (await container.stats({ stream: true })) as Readable;
    } catch {
      return; // Already gone: usage stays at zero.
    }
    if (this.#ended) {
      stream.destroy();
      return;
    }
    this.#stats = stream;
    stream.on('error', () => {});
    await forwardLines(stream, (line) => {
      if (line.trim() === '') return;
      try {
        this.#usage = usageFromStats(JSON.parse(line) as StatsSample);
      } catch {
        return; // Not a sample: ignore it.
      }
      for (const resolve of this.#firstSample.splice(0)) resolve();
    });
  }

  /** The TTY closed: the process is gone. The engine then has the exit code and whether it was an OOM kill. */
  async #finish(container: Docker.Container): Promise<void> {
    this.#ended = true;
    const waited = (await container.wait().catch(() => undefined)) as { StatusCode?: number } | undefined;
    const state = await container
      .inspect()
      .then((info) => info.State)
      .catch(() => undefined);
    this.#stats?.destroy();
    this.#running = false;
    this.#usage = undefined;
    for (const resolve of this.#firstSample.splice(0)) resolve();
    this.emit('exit', {
      code: state?.ExitCode ?? waited?.StatusCode ?? null,
      signal: null,
      oomKilled: state?.OOMKilled ?? false,
    });
  }
}
