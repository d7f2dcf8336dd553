import { spawn } from 'node:child_process';
import { holderProgram } from './holder-program';
import type { HolderSpec } from './holder-protocol';

/**
 * Node's flags for a holder: a small young generation and no extra V8 worker threads; it only moves lines between
 * pipes and a socket.
 */
const HOLDER_NODE_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1', '--input-type=module'];
/** A holder answers within milliseconds; a loaded machine still gets this long. */
const READY_TIMEOUT_MS = 15_000;

/** A holder that is running its game. */
export interface LaunchedHolder {
  holderPid: number;
  /** The game's launcher, leader of its process group. */
  leaderPid: number;
}

/**
 * Starts the holder of one run in a session of its own (detached, so it outlives this daemon and no signal for the
 * daemon's group reaches it), hands it the spec on stdin and waits for its one answer: the game is spawned.
 * @throws Error with the holder's reason (the command could not be spawned, another holder runs the server)
 */
export async function launchHolder(socketPath: string, spec: HolderSpec): Promise<LaunchedHolder> {
  const program = await holderProgram();
  const holder = spawn(process.execPath, [...HOLDER_NODE_FLAGS, '-e', program, '--', socketPath], {
    cwd: '/',
    env: {},
    detached: true,
    // Nobody reads its stderr once this daemon is gone; it answers on stdout once and reports the rest on its socket.
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  holder.stdin.on('error', () => {});
  holder.stdin.end(JSON.stringify(spec));
  try {
    const reply = await firstLine(holder.stdout, holder);
    let parsed: { ready?: boolean; pid?: number; error?: string };
    try {
      parsed = JSON.parse(reply) as typeof parsed;
    } catch {
      throw new Error(`The server's holder did not start: ${reply || 'no answer'}`);
    }
    if (parsed.error) throw new Error(parsed.error);
    if (!parsed.ready || !Number.isInteger(parsed.pid) || holder.pid === undefined)
      throw new Error("The server's holder did not start.");
    return { holderPid: holder.pid, leaderPid: parsed.pid as number };
  } finally {
    holder.stdout.destroy();
    holder.unref();
  }
}

function firstLine(stream: NodeJS.ReadableStream, holder: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      holder.kill('SIGKILL');
      reject(new Error("The server's holder did not answer in time."));
    }, READY_TIMEOUT_MS);
    const done = (line: string) => {
      clearTimeout(timer);
      resolve(line);
    };
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end !== -1) done(text.slice(0, end));
    });
    stream.once('end', () => done(text.trim()));
    holder.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
