import type { EventEmitter } from 'node:events';

/** What a runtime needs to start a server's process. */
export interface RuntimeStartOptions {
  /** The server's own directory: the process runs there and it is its HOME. */
  directory: string;
  /** The egg/server startup command, `{{VAR}}` placeholders intact (as Wings' STARTUP variable). */
  startup: string;
  /** The environment Wings passes (see wingsEnvironment); also what `{{VAR}}` resolves against. */
  environment: Readonly<Record<string, string>>;
}

/** How the server's process ended: an exit code, or the signal that ended it. */
export interface RuntimeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RuntimeEvents {
  /** One console line (stdout or stderr), without its line ending. */
  output: [line: string];
  /** The process and everything it started are gone; emitted once, after the last output line. */
  exit: [exit: RuntimeExit];
}

/**
 * One server's process, whatever runs it (a plain process group now, a container later). One instance runs
 * one process once; the server creates a new runtime for each start.
 */
export interface ServerRuntime extends EventEmitter<RuntimeEvents> {
  /** Resolves once the process is spawned; rejects when it could not be (missing directory, bad command). */
  start(options: RuntimeStartOptions): Promise<void>;
  /** Writes one console command followed by a newline; ignored when the process is gone. */
  write(line: string): void;
  /** Sends a signal to the process and everything it started. */
  signal(signal: NodeJS.Signals): void;
  /** Ends the process and everything it started at once (SIGKILL); never refused. */
  kill(): void;
  /** True between a successful start and the exit event. */
  readonly running: boolean;
}
