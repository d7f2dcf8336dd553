import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Test harness for line-based programs (the demo game server and its players): collects every line a
 * stream prints and waits for the line a test expects, failing with everything seen so far.
 */
export class LineReader {
  readonly lines: string[] = [];
  private waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];

  constructor(stream: Readable) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      this.lines.push(line);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(line)) return true;
        waiter.resolve(line);
        return false;
      });
    });
  }

  /** The first line (already seen or still to come) that contains `text` or matches `pattern`. */
  waitFor(wanted: string | RegExp | ((line: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const test =
      typeof wanted === 'function'
        ? wanted
        : (line: string) => (typeof wanted === 'string' ? line.includes(wanted) : wanted.test(line));
    const seen = this.lines.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `No line matching ${String(wanted)} within ${timeoutMs} ms. Seen:\n${this.lines.join('\n')}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push({
        test,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }
}

export interface RunningProgram {
  child: ChildProcess;
  output: LineReader;
  errors: LineReader;
  send(line: string): void;
  /** Exit code (or signal name) once the program ends; rejects when it outlives `timeoutMs`. */
  exited(timeoutMs?: number): Promise<number | string>;
}

const running = new Set<ChildProcess>();

export function startProgram(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string> },
): RunningProgram {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  const ended = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? -1);
    });
  });
  return {
    child,
    output: new LineReader(child.stdout as Readable),
    errors: new LineReader(child.stderr as Readable),
    send: (line) => child.stdin?.write(`${line}\n`),
    exited: (timeoutMs = 10_000) =>
      Promise.race([
        ended,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs).unref(),
        ),
      ]),
  };
}

/** Kills whatever a failed test left running; only the processes this harness started. */
export function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export interface Player {
  socket: Socket;
  lines: LineReader;
  send(line: string): void;
  closed: Promise<void>;
}

/** A TCP client of the demo server, as a player would connect with `nc`. */
export async function connectPlayer(port: number): Promise<Player> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, lines: new LineReader(socket), send: (line) => socket.write(`${line}\n`), closed };
}
