// `npm run bench:sftp -w @aerie/bench`: the daemon's SFTP server against OpenSSH's own sftp-server (sshd on a
// loopback port), measured in the same run with the same client (OpenSSH's `sftp -b`): one 500 MiB file up and
// down, 5,000 small files up (`put -r`) and down (`get -r`). Prints each side's throughput and the ratios.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { median } from './src/measure';
import { startAerieSftp } from './src/sftp-aerie';
import {
  type ClientKey,
  makeClientKey,
  opensshClientMissing,
  quote,
  runBatch,
  type SftpTarget,
} from './src/sftp-client';
import { fileSha256, type SftpFixtures, treeDigest, writeFixtures } from './src/sftp-fixtures';
import { opensshMissing, startOpenSsh } from './src/sftp-openssh';
import { printSftpTable, type SftpOperationSize, type SftpSample } from './src/sftp-report';

const bigMiB = Number(process.env.SFTP_BENCH_SIZE_MIB ?? 500);
const smallFiles = Number(process.env.SFTP_BENCH_FILES ?? 5000);
const rounds = Number(process.env.SFTP_BENCH_ROUNDS ?? 3);
const logins = Number(process.env.SFTP_BENCH_LOGINS ?? 5);
/** `big`, `small` or both (each uploads, then downloads what it uploaded). */
const parts = new Set((process.env.SFTP_BENCH_PARTS ?? 'big,small').split(','));
/** `-B <bytes>` for both sides: the client's request size, else its own choice (see the README). */
const buffer = process.env.SFTP_BENCH_BUFFER;
/** A folder for a `--cpu-prof` of the daemon (written when it stops). */
const cpuProfileDirectory = process.env.SFTP_BENCH_CPU_PROF;
const clientArgs = buffer ? ['-B', buffer] : [];

/** What was started, stopped in reverse order once, however the run ends (Ctrl-C included). */
const cleanups: Array<() => Promise<void> | void> = [];
let cleaning: Promise<void> | undefined;
const cleanUp = () => {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(console.error);
  })();
  return cleaning;
};
/** Stopped at the end; or at once when the run was already interrupted while it started. */
const track = async (cleanup: () => Promise<void> | void) => {
  if (cleaning) await Promise.resolve(cleanup()).catch(console.error);
  else cleanups.push(cleanup);
};
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.log(`\n${signal}: stopping sshd and the daemon, removing the temp directories`);
    void cleanUp().then(() => process.exit(130));
  });
}

interface Operation extends SftpOperationSize {
  commands(round: number, local: string): string[];
  /** Throws unless what arrived is exactly what was sent. */
  verify(target: SftpTarget, round: number, local: string): Promise<void>;
}

function operations(fixtures: SftpFixtures): Operation[] {
  const list: Operation[] = [];
  const expectSha = (what: string, actual: string) => {
    if (actual !== fixtures.bigSha256) throw new Error(`${what} differs from the file sent`);
  };
  const expectTree = async (what: string, folder: string) => {
    const digest = await treeDigest(folder);
    if (digest.sha256 !== fixtures.small.sha256) {
      throw new Error(`${what}: ${digest.files} files, ${digest.bytes} bytes, not what was sent`);
    }
  };
  if (parts.has('big')) {
    const size = { bytes: fixtures.bigBytes, files: 1, unit: 'MiB/s' as const };
    list.push({
      ...size,
      label: `upload one ${bigMiB} MiB file`,
      commands: (round) => [`put ${quote(fixtures.bigFile)} big-${round}.bin`],
      verify: async (target, round) =>
        expectSha('the uploaded file', await fileSha256(path.join(target.hostRoot, `big-${round}.bin`))),
    });
    list.push({
      ...size,
      label: `download it`,
      commands: (round, local) => [`get big-${round}.bin ${quote(path.join(local, 'big.bin'))}`],
      verify: async (_target, _round, local) =>
        expectSha('the downloaded file', await fileSha256(path.join(local, 'big.bin'))),
    });
  }
  if (parts.has('small')) {
    const size = { bytes: fixtures.small.bytes, files: fixtures.small.files, unit: 'files/s' as const };
    const folders = Math.ceil(fixtures.small.files / 100);
    list.push({
      ...size,
      label: `upload ${smallFiles} files of 1–8 KiB in ${folders} folders (put -r)`,
      commands: (round) => [`put -r ${quote(fixtures.smallFolder)} small-${round}`],
      verify: (target, round) =>
        expectTree('the uploaded folder', path.join(target.hostRoot, `small-${round}`)),
    });
    list.push({
      ...size,
      label: 'download them (get -r)',
      commands: (round, local) => [`get -r small-${round} ${quote(path.join(local, 'small'))}`],
      verify: (_target, _round, local) => expectTree('the downloaded folder', path.join(local, 'small')),
    });
  }
  return list;
}

/** The cipher, key exchange and request sizes each side ends up with, from `sftp -v`. */
async function describe(target: SftpTarget, key: ClientKey, work: string): Promise<string> {
  const { output } = await runBatch(target, key, path.join(work, 'batch'), ['pwd'], [...clientArgs, '-vvv']);
  const find = (pattern: RegExp) => pattern.exec(output)?.[1];
  const cipher = find(/kex: client->server cipher: (\S+)/) ?? '?';
  const kex = find(/kex: algorithm: (\S+)/) ?? '?';
  // OpenSSH ≥ 8.7 asks a server offering limits@openssh.com for its largest read and write (debug3).
  const sizes = /buffer sizes \d+ \/ \d+; using (\d+) \/ (\d+)/.exec(output);
  const requests = buffer
    ? `-B ${buffer}`
    : sizes
      ? `${sizes[1]} / ${sizes[2]} bytes up / down (the server's limits@openssh.com)`
      : '32768 bytes (the client default: no limits@openssh.com)';
  return `${target.name.padEnd(28)} cipher ${cipher}, kex ${kex}, requests of ${requests}`;
}

async function timeLogins(target: SftpTarget, key: ClientKey, work: string): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < logins; index += 1) {
    times.push((await runBatch(target, key, path.join(work, 'batch'), ['pwd'], clientArgs)).ms);
  }
  return median(times);
}

const sync = () => spawnSync('sync');

async function main(): Promise<void> {
  const noClient = opensshClientMissing();
  if (noClient) throw new Error(noClient);
  const work = await mkdtemp(path.join(tmpdir(), 'aerie-bench-sftp-'));
  await track(() => rm(work, { recursive: true, force: true }));
  console.log(
    `sftp: one ${bigMiB} MiB file, ${smallFiles} small files, ${rounds} round(s); load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const source = path.join(work, 'source');
  await mkdir(source);
  const fixtures = await writeFixtures(source, bigMiB, smallFiles);
  const key = await makeClientKey(work);

  const targets: SftpTarget[] = [];
  const missing = opensshMissing();
  if (missing) {
    console.log(`\nno baseline: ${missing}. Only the daemon's figures follow.\n`);
  } else {
    const directory = path.join(work, 'openssh');
    await mkdir(directory);
    const openssh = await startOpenSsh(directory, key.publicKey);
    await track(openssh.stop);
    targets.push(openssh);
  }
  const roomMb = Math.ceil((rounds * (fixtures.bigBytes + fixtures.small.bytes)) / 1024 ** 2) + 1024;
  const aerie = await startAerieSftp({
    publicKey: key.publicKey,
    diskMb: roomMb,
    nodeArgs: cpuProfileDirectory
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfileDirectory)}`]
      : [],
  });
  await track(aerie.stop);
  targets.push(aerie);
  console.log(`Aerie's server: disk limit ${roomMb} MB (the quota is reserved on every write)`);

  for (const target of targets) console.log(await describe(target, key, work));
  const loginMs = new Map<string, number>();
  for (const target of targets) loginMs.set(target.name, await timeLogins(target, key, work));

  const list = operations(fixtures);
  const samples: SftpSample[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    // Each operation runs against both sides back to back, the first side alternating between rounds.
    const order = round % 2 === 1 ? targets : [...targets].reverse();
    for (const operation of list) {
      for (const target of order) {
        const local = path.join(work, 'downloads');
        await rm(local, { recursive: true, force: true });
        await mkdir(local);
        // Earlier writes are flushed before the clock starts, so neither side pays for the other's writeback.
        sync();
        const cpuBefore = await target.cpuSeconds();
        const result = await runBatch(
          target,
          key,
          path.join(work, 'batch'),
          operation.commands(round, local),
          clientArgs,
        );
        const serverCpuSeconds = (await target.cpuSeconds()) - cpuBefore;
        await operation.verify(target, round, local);
        samples.push({
          operation: operation.label,
          side: target.name,
          seconds: result.ms / 1000,
          serverCpuSeconds,
          clientCpuSeconds: result.clientCpuSeconds,
        });
        console.log(
          `  round ${round}  ${target.name.padEnd(28)} ${operation.label}: ${(result.ms / 1000).toFixed(2)} s`,
        );
      }
    }
  }
  await rm(path.join(work, 'downloads'), { recursive: true, force: true });

  console.log('');
  const openssh = targets.find((target) => target !== aerie);
  printSftpTable(list, samples, { aerie: aerie.name, openssh: openssh?.name });
  const aerieLogin = loginMs.get(aerie.name) ?? Number.NaN;
  const opensshLogin = openssh ? loginMs.get(openssh.name) : undefined;
  console.log(
    `\nlog in, pwd, log out (median of ${logins}): Aerie ${aerieLogin.toFixed(0)} ms` +
      (opensshLogin === undefined
        ? ''
        : `, OpenSSH ${opensshLogin.toFixed(0)} ms (time ratio ${(aerieLogin / opensshLogin).toFixed(2)})`) +
      '; every timed batch includes one.',
  );
  console.log(
    `ratio (speed): Aerie's throughput over OpenSSH's, 1.000 = as fast; CPU: seconds of user + system time of the ` +
      `server side (the daemon's process; sshd with its session processes and sftp-server) and of the client ` +
      `(sftp + ssh). Load average at the end ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}.`,
  );
  if (cpuProfileDirectory) console.log(`the daemon's CPU profile goes to ${cpuProfileDirectory} as it stops`);
}

try {
  await main();
} catch (error) {
  // An interrupted run's batches fail as their servers go: that is not worth a stack trace.
  if (!interrupted) {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  await cleanUp();
}
