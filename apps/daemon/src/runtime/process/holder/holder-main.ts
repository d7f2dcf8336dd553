/**
 * The holder of one game server's process: the small program between the daemon and a sandboxed game, in the role
 * containerd's shim or conmon play for containers. It runs in a session of its own, so it and the game outlive the
 * daemon (a crash, kill -9, an upgrade); it owns the game's stdin, stdout and stderr, keeps the last lines in a
 * bounded log, and answers on a Unix socket where the daemon, this one or the next, reads the console, writes
 * commands and sends signals.
 *
 * It is bundled into one plain script at daemon start (see holder-program.ts) and run by bare `node`: no loader,
 * no dependencies, a few MiB of its own. Started as `node -e <program> -- <socket path>`, the spec on stdin; it
 * answers one line on stdout ({"ready":true,"pid":N} or {"error":"…"}) and never writes there again.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmodSync, statSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { forwardLines } from '@aerie/daemon/runtime/process/line-splitter';
import { signalInsideSandbox } from '@aerie/daemon/runtime/process/sandbox/sandbox-signals';
import { ConsoleRing, type NumberedLine } from './console-ring';
import { corkForTick } from './cork-for-tick';
import {
  type DaemonMessage,
  decodeMessage,
  encodeMessage,
  HOLDER_MESSAGE_MAX_BYTES,
  HOLDER_PROTOCOL_VERSION,
  type HolderExit,
  type HolderSpec,
} from './holder-protocol';

/** The log a daemon that was away reads back: enough for a few minutes of a busy server, bounded in memory. */
const RING = { maxLines: 5000, maxBytes: 2 * 1024 * 1024 };
/**
 * A daemon that reads slower than the game prints holds the game up, as a pipe would: past this much unsent, the
 * holder stops reading the game's output until the daemon catches up. With no daemon the game is never held up:
 * the log keeps the newest lines.
 */
const SOCKET_HIGH_WATER = 1024 * 1024;
/** Commands for a game that does not read its stdin stop queuing here. */
const STDIN_QUEUE_MAX = 1024 * 1024;
/** How often the holder checks that its socket is still there: a removed run directory means nobody will come. */
const SOCKET_CHECK_MS = 5000;
/** How long an ended game's exit waits for a daemon to collect it. */
const EXIT_KEPT_MS = 24 * 60 * 60 * 1000;
const SPEC_MAX_BYTES = 4 * 1024 * 1024;

const socketPath = process.argv[1] as string;

function answer(value: object): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
  process.stdout.end();
}

async function readSpec(): Promise<HolderSpec> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SPEC_MAX_BYTES) throw new Error('The holder spec is too large.');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as HolderSpec;
}

/** Whether a live holder already answers on the socket (its server must never get a second game). */
function socketAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    const done = (answers: boolean) => {
      probe.destroy();
      resolve(answers);
    };
    probe.once('connect', () => done(true));
    probe.once('error', () => done(false));
    probe.setTimeout(1000, () => done(false));
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already empty.
  }
}

class Holder {
  readonly #spec: HolderSpec;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pid: number;
  readonly #startedAt = Date.now();
  readonly #ring = new ConsoleRing(RING);
  #daemon: Socket | undefined;
  /** The daemon asked for lines: the number of the last one sent to it. */
  #sent: number | undefined;
  #blocked = false;
  #exitSent = false;
  #exit: HolderExit | undefined;

  constructor(spec: HolderSpec, child: ChildProcessWithoutNullStreams) {
    this.#spec = spec;
    this.#child = child;
    this.#pid = child.pid as number;
    child.stdin.on('error', () => {
      // EPIPE: the game closed its stdin or died; a command to it goes nowhere.
    });
    const onLine = (text: string) => this.#onLine(text);
    const streamsClosed = Promise.all([
      forwardLines(child.stdout, onLine),
      forwardLines(child.stderr, onLine),
    ]);
    child.once('exit', (code, signal) => {
      // Whatever the main process left behind (daemons, `&` jobs) would hold the pipes open for ever.
      signalGroup(this.#pid, 'SIGKILL');
      void streamsClosed.then(() => {
        this.#exit = { code, signal };
        this.#flush();
        setTimeout(() => this.#leave(), EXIT_KEPT_MS).unref();
      });
    });
  }

  /** A daemon connected: it replaces any earlier one (that daemon is gone, or this one would not be here). */
  accept(socket: Socket): void {
    this.#daemon?.destroy();
    this.#daemon = socket;
    this.#sent = undefined;
    this.#setBlocked(false);
    this.#exitSent = false;
    socket.on('error', () => {});
    socket.on('close', () => {
      if (this.#daemon !== socket) return;
      this.#daemon = undefined;
      this.#setBlocked(false);
    });
    socket.on('drain', () => {
      if (this.#daemon !== socket) return;
      this.#setBlocked(false);
      this.#flush();
    });
    socket.setNoDelay(true);
    void forwardLines(
      socket,
      (line) => {
        const message = decodeMessage<DaemonMessage>(line);
        if (message && this.#daemon === socket) this.#onMessage(message);
      },
      HOLDER_MESSAGE_MAX_BYTES,
    );
    socket.write(
      encodeMessage({
        t: 'hello',
        v: HOLDER_PROTOCOL_VERSION,
        uuid: this.#spec.uuid,
        pid: this.#pid,
        startedAt: this.#startedAt,
        sandboxed: this.#spec.sandboxed,
        meta: this.#spec.meta,
      }),
    );
  }

  /** Ends the game at once (its run directory is gone), then the holder. */
  abandon(): void {
    signalGroup(this.#pid, 'SIGKILL');
    if (this.#exit) this.#leave();
    else this.#child.once('exit', () => setTimeout(() => this.#leave(), 100));
  }

  #onMessage(message: DaemonMessage): void {
    switch (message.t) {
      case 'attach':
        this.#sent = Math.max(0, Number(message.after) || 0);
        this.#flush();
        return;
      case 'write': {
        const stdin = this.#child.stdin;
        if (this.#exit || stdin.destroyed || stdin.writableLength > STDIN_QUEUE_MAX) return;
        stdin.write(`${String(message.s)}\n`);
        return;
      }
      case 'signal':
        if (this.#exit) return;
        // SIGKILL may take bubblewrap along: the whole sandbox goes with it, which is what a kill wants.
        if (this.#spec.sandboxed && message.signal !== 'SIGKILL') {
          void signalInsideSandbox(this.#pid, message.signal, this.#spec.sandboxed).catch(() => {});
        } else signalGroup(this.#pid, message.signal);
        return;
      case 'kill':
        if (!this.#exit) signalGroup(this.#pid, 'SIGKILL');
        return;
      case 'release':
        if (this.#exit) this.#leave();
        return;
    }
  }

  #onLine(text: string): void {
    const line = this.#ring.push(text);
    const daemon = this.#daemon;
    // In order and caught up: straight to the daemon; otherwise the log serves it once it has room.
    if (daemon && this.#sent === line.n - 1 && !this.#blocked) {
      this.#sent = line.n;
      this.#sendLine(daemon, line);
    } else this.#flush();
  }

  /**
   * Past the high-water mark the socket's own buffer stops growing: later lines wait in the log until 'drain'
   * (which a write past Node's smaller mark always brings). Returns whether the socket is now full.
   */
  #sendLine(daemon: Socket, line: NumberedLine): boolean {
    corkForTick(daemon);
    daemon.write(encodeMessage({ t: 'line', n: line.n, s: line.s }));
    this.#setBlocked(daemon.writableLength > SOCKET_HIGH_WATER);
    return this.#blocked;
  }

  #setBlocked(blocked: boolean): void {
    if (this.#blocked === blocked) return;
    this.#blocked = blocked;
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      if (blocked) stream.pause();
      else stream.resume();
    }
  }

  /** Sends what the attached daemon has not had yet, until its socket is full; then the exit, once. */
  #flush(): void {
    const daemon = this.#daemon;
    if (!daemon || this.#sent === undefined || this.#blocked) return;
    if (this.#sent < this.#ring.last) {
      for (const line of this.#ring.after(this.#sent)) {
        this.#sent = line.n;
        if (this.#sendLine(daemon, line)) return;
      }
      // Lines the log had already dropped are skipped: the daemon is told the newest number it may expect.
      this.#sent = this.#ring.last;
    }
    if (this.#exit && !this.#exitSent) {
      this.#exitSent = true;
      daemon.write(encodeMessage({ t: 'exit', code: this.#exit.code, signal: this.#exit.signal }));
    }
  }

  #leave(): void {
    try {
      unlinkSync(socketPath);
    } catch {
      // Already gone.
    }
    process.exit(0);
  }
}

async function main(): Promise<void> {
  // Its own session already keeps terminal and group signals away; these would end the game with the holder.
  for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGPIPE'] as const) process.on(signal, () => {});
  process.stdout.on('error', () => {});
  const spec = await readSpec();
  process.title = `aerie-holder ${spec.uuid}`;
  if (await socketAnswers()) throw new Error('Another holder already runs this server.');
  try {
    unlinkSync(socketPath);
  } catch {
    // No stale socket.
  }
  let holder: Holder | undefined;
  const pending: Socket[] = [];
  const server = createServer((socket) => {
    if (holder) holder.accept(socket);
    else pending.push(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  chmodSync(socketPath, 0o600);
  const inode = statSync(socketPath).ino;
  const child = spawn(spec.file, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    // Its own process group: signals and a kill reach whatever the command started.
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  holder = new Holder(spec, child);
  for (const socket of pending.splice(0)) holder.accept(socket);
  const current = holder;
  setInterval(() => {
    let present = false;
    try {
      present = statSync(socketPath).ino === inode;
    } catch {
      present = false;
    }
    if (!present) current.abandon();
  }, SOCKET_CHECK_MS).unref();
  answer({ ready: true, pid: child.pid });
}

// A holder that dies takes its game's console with it: an unexpected error is survived, not thrown.
process.on('uncaughtException', () => {});
main().catch((error: unknown) => {
  answer({ error: error instanceof Error ? error.message : String(error) });
  setTimeout(() => process.exit(1), 50);
});
