import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateEd25519KeyPair, isReadablePrivateKey } from './ed25519-key';

/**
 * The SFTP server's ed25519 host key: generated once into `<data directory>/.sftp/id_ed25519` (OpenSSH format,
 * mode 0600, its folder 0700) and read from there at every start, so clients that trusted it keep trusting it.
 * Written under a temporary name and renamed, so a crash mid-write never leaves half a key to fail on next boot.
 */
export async function loadOrCreateHostKey(dataDirectory: string): Promise<string> {
  const directory = path.join(dataDirectory, '.sftp');
  const file = path.join(directory, 'id_ed25519');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
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
