// `npm run bench:transfers -w @aerie/bench`: a server transfer between two `aerie daemon` processes (the source
// stops nothing here: the server is offline) of a ~1 GiB tree (bench:files' mixed tree topped up with random
// files to BENCH_TRANSFER_MIB, 1024 by default), against the same tree streamed with the standard tools in the same
// run: `tar -cf - . | gzip -1` into a TCP socket on loopback, `tar -xzf -` at the other end ("tar | nc"). Every
// arrival is checked against the original tree off the clock.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { PANEL_TOKEN } from '@aerie/daemon/testing/panel-stand-in';
import { startBenchDaemon } from './src/console-daemon';
import { benchTempDirectory } from './src/files-cleanup';
import { writeMixedTree } from './src/files-tree';
import { median, mib, printTable, ratio } from './src/measure';
import { treeDigest } from './src/sftp-fixtures';

const rounds = Number(process.env.BENCH_TRANSFER_ROUNDS ?? 2);
const totalMiB = Number(process.env.BENCH_TRANSFER_MIB ?? 1024);

const temp = benchTempDirectory('aerie-bench-transfers-');
const uuid = randomUUID();
const configuration = fileServerConfiguration(uuid);
const source = await startBenchDaemon([configuration]);
const target = await startBenchDaemon([]);

const sync = () => spawnSync('sync');
const timed = async (work: () => Promise<unknown>) => {
  sync();
  const started = performance.now();
  await work();
  return performance.now() - started;
};

/** The tree: bench:files' mixed tree, then 64 MiB files of random bytes until `totalMiB`. */
async function writeTree(root: string): Promise<number> {
  const tree = await writeMixedTree(root);
  let bytes = tree.bytes;
  for (let index = 0; bytes < totalMiB * 1024 ** 2; index += 1) {
    const size = Math.min(64 * 1024 ** 2, totalMiB * 1024 ** 2 - bytes);
    await mkdir(path.join(root, 'world/big'), { recursive: true });
    await writeFile(path.join(root, `world/big/chunk-${index}.bin`), randomBytesFast(size, index));
    bytes += size;
  }
  return bytes;
}

/** Pseudo-random bytes (xorshift), incompressible as a world's region files are, cheaper than crypto's. */
function randomBytesFast(size: number, seed: number): Buffer {
  const buffer = Buffer.allocUnsafe(size - (size % 4));
  let x = (seed + 1) * 2654435761;
  for (let offset = 0; offset < buffer.length; offset += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buffer.writeUInt32LE(x >>> 0, offset);
  }
  return buffer;
}

/** `tar -cf - . | gzip -1` into a loopback socket, `tar -xzf -` reading it: the tools' streaming transfer. */
async function tarOverTcp(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  const extracted = new Promise<void>((resolve, reject) => {
    const listener = createServer((socket) => {
      const tar = spawn('tar', ['-xzf', '-', '-C', to], { stdio: ['pipe', 'ignore', 'inherit'] });
      socket.pipe(tar.stdin);
      tar.on('exit', (code) => {
        listener.close();
        if (code === 0) resolve();
        else reject(new Error(`tar -x exited ${code}`));
      });
    });
    listener.listen(0, '127.0.0.1', () => {
      const address = listener.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const sender = spawn('sh', ['-c', 'tar -cf - . | gzip -1'], {
        cwd: from,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      sender.stdout.pipe(connect(port, '127.0.0.1'));
    });
  });
  await extracted;
}

const transferToken = async () => {
  const now = Math.floor(Date.now() / 1000);
  const jwt = await signTestToken(
    { sub: uuid, server_uuid: uuid, purpose: 'transfer', iat: now, nbf: now, exp: now + 900 },
    { key: PANEL_TOKEN },
  );
  return `Bearer ${jwt}`;
};

try {
  const bytes = await writeTree(source.volume(uuid));
  const original = await treeDigest(source.volume(uuid));
  console.log(`tree: ${original.files} files, ${mib(bytes)}`);
  const samples: Record<string, number[]> = { aerie: [], tar: [] };
  // Each round moves the server across and the next one back, as a panel would: the old node deletes it after.
  let [from, to] = [source, target];
  for (let round = 0; round < rounds; round++) {
    to.panel.servers.set(uuid, configuration);
    samples.aerie?.push(
      await timed(async () => {
        const started = await from.request('POST', `/api/servers/${uuid}/transfer`, {
          url: `${to.url}/api/transfers`,
          token: await transferToken(),
          server: { uuid, start_on_completion: false },
        });
        if (started.status !== 202)
          throw new Error(`transfer: ${started.status} ${JSON.stringify(started.body)}`);
        const report = await to.panel.waitForTransferReport(uuid, 1_800_000);
        if (report.outcome !== 'success') throw new Error(`the transfer failed: ${report.reason}`);
      }),
    );
    const arrived = await treeDigest(to.volume(uuid));
    if (arrived.sha256 !== original.sha256) throw new Error('the transfer did not arrive whole');
    to.panel.transferReports.length = 0;

    samples.tar?.push(await timed(() => tarOverTcp(to.volume(uuid), path.join(temp.path, 'tar'))));
    const copied = await treeDigest(path.join(temp.path, 'tar'));
    if (copied.sha256 !== original.sha256) throw new Error('tar | nc did not arrive whole');
    await rm(path.join(temp.path, 'tar'), { recursive: true, force: true });

    const deleted = await from.request('DELETE', `/api/servers/${uuid}`);
    if (deleted.status !== 204) throw new Error(`delete on the old node: ${deleted.status}`);
    from.panel.servers.delete(uuid);
    [from, to] = [to, from];
  }
  const aerie = median(samples.aerie ?? []);
  const tar = median(samples.tar ?? []);
  console.log(`\n${rounds} rounds, medians, ${mib(bytes)} between two daemons on this machine`);
  printTable(
    ['', 'Aerie', 'tar | nc', 'ratio'],
    [
      [
        'transfer',
        `${(aerie / 1000).toFixed(2)} s (${mib((bytes / aerie) * 1000)}/s)`,
        `${(tar / 1000).toFixed(2)} s (${mib((bytes / tar) * 1000)}/s)`,
        ratio(aerie, tar),
      ],
    ],
  );
} finally {
  await source.stop().catch(() => undefined);
  await target.stop().catch(() => undefined);
  temp.remove();
}
