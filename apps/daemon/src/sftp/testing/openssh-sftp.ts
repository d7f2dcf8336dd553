import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Whether OpenSSH's `sftp` client is installed (Debian's openssh-client; `.ci/run` installs it). */
export async function opensshAvailable(): Promise<boolean> {
  return new Promise((resolve) => execFile('sftp', ['-h'], (error) => resolve(error?.code !== 'ENOENT')));
}

export interface BatchOutcome {
  code: number;
  output: string;
}

/**
 * Runs OpenSSH's `sftp -b` with `commands` as its batch against 127.0.0.1:`port`, as `username`, with a private
 * key (OpenSSH format) or a password (fed through SSH_ASKPASS, the only way OpenSSH takes one without a terminal).
 * No user or system configuration is read, and the host key is not remembered.
 */
export async function runSftpBatch(options: {
  port: number;
  username: string;
  commands: string[];
  privateKey?: string;
  password?: string;
  cwd?: string;
}): Promise<BatchOutcome> {
  const directory = await mkdtemp(path.join(tmpdir(), 'aerie-openssh-'));
  try {
    const batch = path.join(directory, 'batch');
    await writeFile(batch, `${options.commands.join('\n')}\n`);
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
      'ConnectTimeout=10',
      '-P',
      String(options.port),
    ];
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: directory };
    if (options.privateKey !== undefined) {
      const key = path.join(directory, 'id_ed25519');
      await writeFile(key, options.privateKey, { mode: 0o600 });
      args.push('-o', 'IdentitiesOnly=yes', '-o', 'PasswordAuthentication=no', '-i', key);
    }
    if (options.password !== undefined) {
      const askpass = path.join(directory, 'askpass');
      await writeFile(askpass, `#!/bin/sh\nprintf '%s\\n' '${options.password.replace(/'/g, `'\\''`)}'\n`);
      await chmod(askpass, 0o700);
      Object.assign(env, { SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' });
      // Before -b, so it wins over the BatchMode=yes that -b adds (ssh keeps an option's first value).
      args.push('-o', 'BatchMode=no', '-o', 'PubkeyAuthentication=no', '-o', 'NumberOfPasswordPrompts=1');
    }
    args.push('-b', batch, `${options.username}@127.0.0.1`);
    return await new Promise<BatchOutcome>((resolve) => {
      execFile(
        'sftp',
        args,
        { env, cwd: options.cwd ?? directory, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 255) : 0;
          resolve({ code, output: `${stdout}${stderr}` });
        },
      );
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
