import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './bench-setup';
import { hasChildren, type SftpTarget, treeCpuSeconds, waitForPort } from './sftp-client';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';
/** Where distributions put OpenSSH's sftp-server (Debian's first). */
const SFTP_SERVERS = [
  '/usr/lib/openssh/sftp-server',
  '/usr/libexec/openssh/sftp-server',
  '/usr/libexec/sftp-server',
];

/** Why the baseline cannot run here, or undefined when it can. */
export function opensshMissing(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} is missing (Debian: apt-get install -y openssh-server)`;
  if (!SFTP_SERVERS.some((candidate) => existsSync(candidate))) return 'no OpenSSH sftp-server found';
  return undefined;
}

/**
 * OpenSSH's `sshd` in the foreground on a free loopback port, with its own host key and configuration in
 * `directory`: key login only (the bench's client key, for the user running the bench), `Subsystem sftp` the
 * system's `sftp-server` (a process of its own per session, as a stock install serves SFTP), nothing chrooted.
 * The files go to `directory/files`. Its CPU is the listener's own plus that of every connection process it has
 * reaped (each session's sshd and sftp-server).
 */
export async function startOpenSsh(directory: string, publicKey: string): Promise<SftpTarget> {
  const hostKey = path.join(directory, 'ssh_host_ed25519_key');
  const files = path.join(directory, 'files');
  await mkdir(files, { recursive: true });
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'aerie-bench-host', '-f', hostKey]);
  await writeFile(path.join(directory, 'authorized_keys'), `${publicKey}\n`, { mode: 0o600 });
  const sftpServer = SFTP_SERVERS.find((candidate) => existsSync(candidate)) ?? 'internal-sftp';
  const user = userInfo().username;
  const port = await freePort();
  const config = path.join(directory, 'sshd_config');
  await writeFile(
    config,
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(directory, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(directory, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      // The temp directory's parents are world-writable (/tmp): StrictModes would refuse the authorized_keys.
      'StrictModes no',
      'UsePAM no',
      'UseDNS no',
      'X11Forwarding no',
      'PrintMotd no',
      `Subsystem sftp ${sftpServer}`,
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  // Run as root, sshd wants its privilege separation directory (made by its init script, absent without one).
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) await mkdir('/run/sshd', { mode: 0o755 });
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config, '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await Promise.race([
      waitForPort(port, 'sshd'),
      exited.then(() => {
        throw new Error(`sshd exited at start:\n${log}`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  const pid = child.pid ?? 0;
  return {
    name: `OpenSSH (${path.basename(sftpServer)})`,
    port,
    username: user,
    remoteRoot: files,
    hostRoot: files,
    async cpuSeconds() {
      // A finished session's processes count once sshd has reaped them: wait for that (a few ms after the client).
      const deadline = Date.now() + 5000;
      while ((await hasChildren(pid)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return treeCpuSeconds(pid);
    },
    stop,
  };
}
