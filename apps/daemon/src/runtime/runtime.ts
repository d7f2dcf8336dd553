import type { EventEmitter } from 'node:events';
import type { CustomMount } from '@aerie/daemon/server/custom-mounts';

/** The server's resource limits as the panel sends them (Wings' `build`), in the panel's units. */
export interface RuntimeLimits {
  /** MB (Wings multiplies by 1,000,000); 0 = unlimited. */
  memoryMb: number;
  /** MB; -1 = unlimited swap, 0 = none. */
  swapMb: number;
  /** Percent of one core (100 = one core); 0 = unlimited. */
  cpuPercent: number;
  /** cpuset such as "0-1,3", or null for any. */
  threads: string | null;
  /** 10–1000, or 0 to leave it to the engine. */
  ioWeight: number;
  oomDisabled: boolean;
  /** MB of disk; 0 = unlimited (enforced by the daemon, not the runtime). */
  diskMb: number;
}

/** Where the server listens: the default allocation and every ip → ports mapping (published tcp + udp). */
export interface RuntimeAllocations {
  default: { ip: string; port: number };
  mappings: Readonly<Record<string, readonly number[]>>;
}

/** What a runtime needs to start a server's process. */
export interface RuntimeStartOptions {
  /** The server's uuid: docker names its container after it. */
  uuid: string;
  /** The server's own directory: the process runs there and it is its HOME (docker: /home/container). */
  directory: string;
  /** The egg/server startup command, `{{VAR}}` placeholders intact (as Wings' STARTUP variable). */
  startup: string;
  /** The environment Wings passes (see wingsEnvironment); also what `{{VAR}}` resolves against. */
  environment: Readonly<Record<string, string>>;
  /** The docker image (the process runtime ignores it). Prefixed `~`: never pulled. */
  image: string;
  limits: RuntimeLimits;
  allocations: RuntimeAllocations;
  /** Host paths shown to the game, already checked against the node's allowed mounts (server/custom-mounts.ts). */
  mounts?: readonly CustomMount[];
}

/** How the server's process ended: an exit code, or the signal that ended it. */
export interface RuntimeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the engine killed it for memory (docker's OOMKilled); always false for the process runtime. */
  oomKilled?: boolean;
}

/** One sample of what the server uses now (Wings' stats, without state/uptime/disk which the daemon adds). */
export interface RuntimeUsage {
  memoryBytes: number;
  /** The limit the process runs under (docker: the container limit), 0 when unlimited. */
  memoryLimitBytes: number;
  /** 100 = one full core; can exceed 100. Rounded to 3 decimals. */
  cpuAbsolute: number;
  /** Cumulative bytes received / sent; 0 where the runtime cannot tell (the process runtime). */
  rxBytes: number;
  txBytes: number;
}

export interface RuntimeEvents {
  /** One console line (stdout or stderr), without its line ending. */
  output: [line: string];
  /** The process and everything it started are gone; emitted once, after the last output line. */
  exit: [exit: RuntimeExit];
}

/**
 * One server's process, whatever runs it (a process group, a container). One instance runs one process once;
 * the server creates a new runtime for each start.
 */
export interface ServerRuntime extends EventEmitter<RuntimeEvents> {
  /** Resolves once the process is spawned; rejects when it could not be (missing directory, bad command, no image). */
  start(options: RuntimeStartOptions): Promise<void>;
  /** Writes one console command followed by a newline; ignored when the process is gone. */
  write(line: string): void;
  /** Sends a signal to the process and everything it started. */
  signal(signal: NodeJS.Signals): void;
  /** Ends the process and everything it started at once (SIGKILL); never refused. */
  kill(): void;
  /** One usage sample; zeros when not running. */
  usage(): Promise<RuntimeUsage>;
  /** True between a successful start and the exit event. */
  readonly running: boolean;
}

/**
 * A server's process that a new daemon found running (left by a daemon that crashed, was killed or upgraded),
 * re-attached to its console, stats and power. Nothing flows until follow(), so the caller can listen first.
 */
export interface AdoptedRuntime extends ServerRuntime {
  /** ms since the epoch the process started. */
  readonly startedAt: number;
  /**
   * Starts delivering output: the lines kept while no daemon listened (the holder's log, the container's last
   * lines), then live ones; an exit that came while no daemon listened arrives last.
   */
  follow(): void;
}

/** An egg install script run for one server (Wings §5). */
export interface InstallOptions {
  uuid: string;
  /** The server's directory: /mnt/server for the script. */
  directory: string;
  /** The script, CRLF already turned into LF. */
  script: string;
  /** The installer image (docker) and entrypoint (e.g. `bash`, `ash`). */
  image: string;
  entrypoint: string;
  environment: Readonly<Record<string, string>>;
  limits: RuntimeLimits;
  /** Each output line of the installer as it comes. */
  onOutput: (line: string) => void;
  /** Aborting ends the installer at once (server deleted, daemon stopping). */
  signal?: AbortSignal;
}

/** A way of running servers: `process` (embedded default) or `docker`. */
export interface RuntimeDriver {
  readonly name: 'process' | 'docker';
  /** A fresh runtime for one start of one server. */
  createRuntime(): ServerRuntime;
  /** Runs the install script to its end; resolves with its exit code (0 = success). */
  install(options: InstallOptions): Promise<{ exitCode: number }>;
  /**
   * Re-attaches to the server's process if one is still running from an earlier daemon. Where that is impossible
   * (its holder died, hangs or speaks another protocol), whatever that process left is ended and undefined comes
   * back, as it does when nothing was running: the caller then brings the server back to its last state.
   */
  adopt(uuid: string): Promise<AdoptedRuntime | undefined>;
  /** Removes what the runtime keeps for a deleted server (its container); files are the daemon's. */
  destroy(uuid: string): Promise<void>;
  /**
   * Who the server's game runs as, when that is not the daemon's own user (a root daemon): what the daemon
   * creates in the server's files is given to it, so the game can change it without waiting for its next start.
   */
  fileOwner?(uuid: string): Promise<{ uid: number; gid: number } | undefined>;
  /**
   * At boot, once every game still running is adopted: ends what runs of other servers left behind (a server
   * deleted while no daemon was there). @returns how many it ended
   */
  sweep?(running: ReadonlySet<string>): Promise<number>;
}
