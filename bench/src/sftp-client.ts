import { execFile, spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One SFTP server under test, as the client sees it and as this host sees it. */
export interface SftpTarget {
  name: string;
  port: number;
  username: string;
  /** The folder the batches work in, as the SFTP client names it (`cd` to it first). */
  remoteRoot: string;
  /** That folder on this host, to check what arrived. */
  hostRoot: string;
  /** CPU seconds (user + system) the server side has used so far: every process and thread of it. */
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
}

/** Why OpenSSH's client tools cannot run here, or undefined when they can. */
export function opensshClientMissing(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v sftp && command -v ssh-keygen']);
  return found.status === 0
    ? undefined
    : "OpenSSH's sftp and ssh-keygen are needed (Debian: apt-get install -y openssh-client)";
}

/** The client's key pair (OpenSSH format), made by `ssh-keygen`. */
export interface ClientKey {
  privateKeyFile: string;
  /** `ssh-ed25519 AAAA…` without the comment. */
  publicKey: string;
}

export async function makeClientKey(directory: string): Promise<ClientKey> {
  const privateKeyFile = path.join(directory, 'client_ed25519');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'aerie-bench', '-f', privateKeyFile]);
  const publicKey = (await readFile(`${privateKeyFile}.pub`, 'utf8')).split(' ').slice(0, 2).join(' ');
  return { privateKeyFile, publicKey };
}

export interface BatchResult {
  ms: number;
  /** CPU seconds of the client (`sftp` and the `ssh` it runs). */
  clientCpuSeconds: number;
  output: string;
}

/**
 * OpenSSH's `sftp -b`: `commands` after a `cd` to the target's root, key login, no configuration read, the host key
 * neither checked nor remembered. `extraArgs` go before the batch (`-B 32768`, `-v`). Timed from spawn to exit.
 * @throws when sftp exits non-zero (a command in the batch failed)
 */
export async function runBatch(
  target: SftpTarget,
  key: ClientKey,
  batchFile: string,
  commands: string[],
  extraArgs: string[] = [],
): Promise<BatchResult> {
  await writeFile(batchFile, `${[`cd ${quote(target.remoteRoot)}`, ...commands].join('\n')}\n`);
  const args = [
    '-F',
    '/dev/null',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'PasswordAuthentication=no',
    '-i',
    key.privateKeyFile,
    '-P',
    String(target.port),
    ...extraArgs,
    '-b',
    batchFile,
    `${target.username}@127.0.0.1`,
  ];
  const cpuBefore = await childrenCpuSeconds();
  const start = performance.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('sftp', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-500_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, output }));
  });
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`sftp against ${target.name} exited ${code}:\n${output.slice(-4000)}`);
  return { ms, clientCpuSeconds: (await childrenCpuSeconds()) - cpuBefore, output };
}

/** A path as one argument of an sftp batch command. */
export const quote = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

let clockTicks: number | undefined;
async function ticksPerSecond(): Promise<number> {
  clockTicks ??= Number((await run('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
  return clockTicks;
}

/** utime, stime, cutime, cstime of a process (clock ticks); cutime/cstime count its children once reaped. */
async function processTimes(pid: number | 'self'): Promise<number[]> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].map((index) => Number(fields[index]));
}

/** CPU seconds of a process and of every child it has reaped (threads included). */
export async function treeCpuSeconds(pid: number): Promise<number> {
  const times = await processTimes(pid);
  return times.reduce((sum, value) => sum + value, 0) / (await ticksPerSecond());
}

/** CPU seconds of this process's reaped children (each finished `sftp` with its `ssh`). */
async function childrenCpuSeconds(): Promise<number> {
  const [, , cutime = 0, cstime = 0] = await processTimes('self');
  return (cutime + cstime) / (await ticksPerSecond());
}

/** Whether `pid` has live children (their CPU is not in its cutime until they are reaped). */
export async function hasChildren(pid: number): Promise<boolean> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (Number(ppid) === pid) return true;
  }
  return false;
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`. */
export async function waitForPort(port: number, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} does not answer on 127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
