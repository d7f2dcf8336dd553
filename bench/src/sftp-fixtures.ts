import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What the bench moves: one big file and a folder of small ones, with what they must look like on arrival. */
export interface SftpFixtures {
  bigFile: string;
  bigBytes: number;
  bigSha256: string;
  smallFolder: string;
  small: TreeDigest;
}

/** A folder's files: how many, their bytes, and one hash over their sorted relative paths and contents. */
export interface TreeDigest {
  files: number;
  bytes: number;
  sha256: string;
}

/** Small files per folder: `small/d000/f00000.bin` … (OpenSSH's `put -r`/`get -r` walk the folders). */
const FILES_PER_FOLDER = 100;
const CHUNK = 8 * 1024 * 1024;

/**
 * Writes `bigMiB` MiB of random bytes (nothing for compression to find) and `files` files of 1–8 KiB (sizes from a
 * fixed seed, random contents) under `directory`.
 */
export async function writeFixtures(directory: string, bigMiB: number, files: number): Promise<SftpFixtures> {
  const bigFile = path.join(directory, 'big.bin');
  const bigBytes = bigMiB * 1024 * 1024;
  const hash = createHash('sha256');
  const handle = await open(bigFile, 'w');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let written = 0; written < bigBytes; ) {
      const piece = buffer.subarray(0, Math.min(CHUNK, bigBytes - written));
      randomFillSync(piece);
      hash.update(piece);
      await handle.write(piece, 0, piece.length);
      written += piece.length;
    }
  } finally {
    await handle.close();
  }
  const smallFolder = path.join(directory, 'small');
  let seed = 0x2545f491;
  const nextSize = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return 1024 + (seed % (7 * 1024 + 1));
  };
  for (let index = 0; index < files; index += 1) {
    const folder = path.join(
      smallFolder,
      `d${String(Math.floor(index / FILES_PER_FOLDER)).padStart(3, '0')}`,
    );
    if (index % FILES_PER_FOLDER === 0) await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, `f${String(index).padStart(5, '0')}.bin`),
      randomFillSync(Buffer.alloc(nextSize())),
    );
  }
  if (files === 0) await mkdir(smallFolder, { recursive: true });
  return {
    bigFile,
    bigBytes,
    bigSha256: hash.digest('hex'),
    smallFolder,
    small: await treeDigest(smallFolder),
  };
}

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `root` (folders walked, nothing else allowed), digested in path order. */
export async function treeDigest(root: string): Promise<TreeDigest> {
  const names: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(root, relative), { withFileTypes: true })) {
      const name = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) names.push(name);
      else throw new Error(`${path.join(root, name)} is neither a file nor a folder`);
    }
  };
  await walk('');
  names.sort();
  const hash = createHash('sha256');
  let bytes = 0;
  for (const name of names) {
    const contents = await readFile(path.join(root, name));
    bytes += contents.length;
    hash.update(`${name}\0${contents.length}\0`);
    hash.update(contents);
  }
  return { files: names.length, bytes, sha256: hash.digest('hex') };
}
