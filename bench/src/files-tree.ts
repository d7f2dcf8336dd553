// A deterministic ~200 MiB server-like tree: many small config/log files and region-like binaries in nested
// directories, plus a few large logs and jar-like blobs. Same seed, same bytes, so every run compresses the
// same input and the archive sizes can be compared between runs.
import { createCipheriv, createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** mulberry32: a tiny seeded PRNG, good enough to pick words and sizes reproducibly. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'player joined left the game server thread info warn saving chunks world overworld nether end ' +
  'entity zombie skeleton creeper spawned at position tick took ms behind skipping loaded plugin ' +
  'version config enabled disabled true false spawn-protection max-players motd difficulty normal'
).split(' ');
const LEVELS = ['INFO', 'WARN', 'INFO', 'INFO', 'DEBUG'];

/** Log-like text: compresses well (about 4–6× with gzip -6), as real server logs and configs do. */
function text(random: () => number, bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const words = Array.from(
      { length: 4 + Math.floor(random() * 10) },
      () => WORDS[Math.floor(random() * WORDS.length)],
    );
    const clock = `${String(Math.floor(random() * 24)).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}`;
    const line = `[${clock}] [Server thread/${LEVELS[Math.floor(random() * LEVELS.length)]}]: ${words.join(' ')} ${Math.floor(random() * 100_000)}\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

/** Incompressible bytes: AES-CTR of zeros under a key derived from `seed` (deterministic and fast). */
function noise(seed: string, bytes: number): Buffer {
  const key = createHash('sha256').update(seed).digest().subarray(0, 16);
  return createCipheriv('aes-128-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(bytes));
}

export interface TreeSummary {
  files: number;
  directories: number;
  bytes: number;
  textBytes: number;
  randomBytes: number;
}

/** Writes the tree under `root` (which must exist) and says what it holds. */
export async function writeMixedTree(root: string): Promise<TreeSummary> {
  const random = prng(20261123);
  const summary: TreeSummary = { files: 0, directories: 0, bytes: 0, textBytes: 0, randomBytes: 0 };
  const directories = new Set<string>();
  const put = async (relative: string, data: Buffer, kind: 'text' | 'random') => {
    const directory = path.dirname(path.join(root, relative));
    if (!directories.has(directory)) {
      await mkdir(directory, { recursive: true });
      directories.add(directory);
    }
    await writeFile(path.join(root, relative), data);
    summary.files += 1;
    summary.bytes += data.length;
    if (kind === 'text') summary.textBytes += data.length;
    else summary.randomBytes += data.length;
  };

  // 5,000 small configs and logs, 1–15 KiB, three levels deep (plugins/<p>/<sub>/file).
  for (let index = 0; index < 5000; index += 1) {
    const relative = `plugins/p${index % 50}/d${index % 7}/s${index % 3}/config-${index}.yml`;
    await put(relative, text(random, 1024 + Math.floor(random() * 14 * 1024)), 'text');
  }
  // 1,000 region-like binaries, 4–28 KiB, in world/<dimension>/region.
  for (let index = 0; index < 1000; index += 1) {
    const relative = `world/dim${index % 3}/region/r.${index}.mca`;
    await put(relative, noise(`region ${index}`, 4096 + Math.floor(random() * 24 * 1024)), 'random');
  }
  // A few large files: two long logs and two jar-like blobs.
  await put('logs/latest.log', text(random, 40 * 1024 ** 2), 'text');
  await put('logs/2026-11-22-1.log', text(random, 40 * 1024 ** 2), 'text');
  await put('server.jar', noise('server.jar', 32 * 1024 ** 2), 'random');
  await put('libraries/bundle/deps.jar', noise('deps.jar', 32 * 1024 ** 2), 'random');
  summary.directories = directories.size;
  return summary;
}
