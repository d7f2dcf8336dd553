import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The SFTP server's ed25519 host key: generated once into `<data directory>/.sftp/id_ed25519` (OpenSSH format,
 * mode 0600, its folder 0700) and read from there at every start, so clients that trusted it keep trusting it.
 * Written under a temporary name and renamed, so a crash mid-write never leaves half a key to fail on next boot.
 */
export async function loadOrCreateHostKey(dataDirectory: string): Promise<string> {
  return hostKeyFrom(dataDirectory, await readHostKey(dataDirectory));
}

/**
 * The file side, without ssh2 (at the daemon's boot): the key's folder made (0700) and the key file's text, or
 * undefined when there is none yet.
 * @throws the read error (EACCES…) other than ENOENT
 */
export async function readHostKey(dataDirectory: string): Promise<string | undefined> {
  const directory = path.join(dataDirectory, '.sftp');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  return readFile(path.join(directory, 'id_ed25519'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** The key to serve: `existing` when ssh2 can read it, else a new one in its place (this loads ssh2). */
export async function hostKeyFrom(dataDirectory: string, existing: string | undefined): Promise<string> {
  const { generateEd25519KeyPair, isReadablePrivateKey } = await import('./ed25519-key');
  const directory = path.join(dataDirectory, '.sftp');
  const file = path.join(directory, 'id_ed25519');
  // A key no client could ever be served with (see ed25519-key.ts) is replaced rather than kept.
  if (existing !== undefined && isReadablePrivateKey(existing)) {
    await chmod(file, 0o600);
    return existing;
  }
  const { private: privateKey } = generateEd25519KeyPair();
  const temporary = path.join(directory, `.id_ed25519-${randomUUID()}`);
  await writeFile(temporary, privateKey, { mode: 0o600, flag: 'wx' });
  await rename(temporary, file);
  return privateKey;
}
