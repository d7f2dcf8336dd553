// `npm run bench:files -w @aerie/bench`: the daemon's jailed filesystem (apps/daemon/src/fs) against the bare
// operations it wraps, in the same run on the same files: listing 10,000 files against readdir + lstat, and a
// 200 MiB mixed tree to tar.gz and back against GNU tar. Everything lives in one temp directory, removed at the end.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import {
  type CompressRound,
  compressRound,
  type DecompressRound,
  decompressRound,
  run,
} from './src/files-archive';
import { benchTempDirectory } from './src/files-cleanup';
import { compareListing, medians, writeFlatDirectory } from './src/files-list';
import { writeMixedTree } from './src/files-tree';
import { median, mib, printTable, ratio } from './src/measure';

const listFiles = Number(process.env.BENCH_LIST_FILES ?? 10_000);
const listRounds = Number(process.env.BENCH_LIST_ROUNDS ?? 15);
const archiveRounds = Number(process.env.BENCH_ARCHIVE_ROUNDS ?? 2);

const temp = benchTempDirectory('aerie-bench-files-');
try {
  const root = path.join(temp.path, 'root');
  await mkdir(path.join(root, 'flat'), { recursive: true });
  const open = () => ServerFilesystem.open({ root, denylist: [], extractLimits: {} });
  const files = await open();

  // The flat files first: while the tree is written they settle (a file changed in the last seconds is sniffed
  // on every listing, as a world folder's region files long since written are not).
  await writeFlatDirectory(path.join(root, 'flat'), listFiles);
  await mkdir(path.join(root, 'tree'));
  const tree = await writeMixedTree(path.join(root, 'tree'));
  const listing = await compareListing(files, open, '/flat', path.join(root, 'flat'), listRounds);
  const list = medians(listing);
  console.log(
    `tree: ${tree.files} files in ${tree.directories} directories, ${mib(tree.bytes)} (${mib(tree.textBytes)} text, ${mib(tree.randomBytes)} random)`,
  );
  const tarArchive = path.join(temp.path, 'tar.tar.gz');
  const daemonArchive = path.join(temp.path, 'daemon.tar.gz');
  const compressions: CompressRound[] = [];
  for (let round = 0; round < archiveRounds; round += 1) {
    compressions.push(await compressRound(files, 'tree', tarArchive, daemonArchive));
  }
  // GNU tar must read what the daemon wrote: a fast archive nobody can open would be no figure at all.
  const checkTarget = path.join(temp.path, 'check');
  await mkdir(checkTarget);
  await run('tar', ['-xzf', daemonArchive, '-C', checkTarget]);
  const decompressions: DecompressRound[] = [];
  for (let round = 0; round < archiveRounds; round += 1) {
    decompressions.push(await decompressRound(files, tarArchive, path.join(temp.path, 'tar-extract')));
  }
  const extracted = decompressions[0];
  if (extracted && extracted.bytes !== tree.bytes) {
    throw new Error(`decompress wrote ${extracted.bytes} bytes of ${tree.bytes}`);
  }

  const pick = <T>(rows: T[], value: (row: T) => number) => median(rows.map(value));
  const compressMs = pick(compressions, (r) => r.serverFilesystemMs);
  const tarCompressMs = pick(compressions, (r) => r.tarMs);
  const decompressMs = pick(decompressions, (r) => r.serverFilesystemMs);
  const tarDecompressMs = pick(decompressions, (r) => r.tarMs);
  const last = compressions.at(-1);
  const ms = (value: number) => `${value.toFixed(1)} ms`;

  console.log(
    `\nmedians; list: ${listRounds} rounds, ${listing.entries} entries; archives: ${archiveRounds} rounds, gzip level 6 both`,
  );
  printTable(
    ['operation', 'ServerFilesystem', 'baseline', 'ratio (time)', 'baseline is'],
    [
      [
        'list 10,000 files, cold',
        ms(list.cold),
        ms(list.baseline),
        ratio(list.cold, list.baseline),
        'readdir + lstat each',
      ],
      [
        'list 10,000 files, again',
        ms(list.serverFilesystem),
        ms(list.baseline),
        ratio(list.serverFilesystem, list.baseline),
        'readdir + lstat each',
      ],
      [
        'compress tree to tar.gz',
        ms(compressMs),
        ms(tarCompressMs),
        ratio(compressMs, tarCompressMs),
        'tar -czf',
      ],
      [
        'decompress that tar.gz',
        ms(decompressMs),
        ms(tarDecompressMs),
        ratio(decompressMs, tarDecompressMs),
        'tar -xzf',
      ],
    ],
  );
  if (last) {
    console.log(
      `\narchive size: ServerFilesystem ${last.serverFilesystemBytes} bytes, tar -czf ${last.tarBytes} bytes, ratio ${ratio(last.serverFilesystemBytes, last.tarBytes)} (tree ${tree.bytes} bytes)`,
    );
  }
  console.log(
    `throughput: compress ${mib((tree.bytes / compressMs) * 1000)}/s (tar ${mib((tree.bytes / tarCompressMs) * 1000)}/s), decompress ${mib((tree.bytes / decompressMs) * 1000)}/s (tar ${mib((tree.bytes / tarDecompressMs) * 1000)}/s)`,
  );
  console.log(
    `rounds (ms): list cold ${listing.coldMs.map((v) => v.toFixed(1)).join(' ')} | list again ${listing.serverFilesystemMs.map((v) => v.toFixed(1)).join(' ')} | readdir+lstat ${listing.baselineMs.map((v) => v.toFixed(1)).join(' ')}`,
  );
  console.log(
    `rounds (ms): compress ${compressions.map((r) => `${r.serverFilesystemMs.toFixed(0)}/${r.tarMs.toFixed(0)}`).join(' ')} | decompress ${decompressions.map((r) => `${r.serverFilesystemMs.toFixed(0)}/${r.tarMs.toFixed(0)}`).join(' ')} (ServerFilesystem/tar)`,
  );
} finally {
  temp.remove();
}
