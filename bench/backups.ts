// `npm run bench:backups -w @aerie/bench`: the daemon's backups (apps/daemon/src/backups) of bench:files' ~200 MiB
// mixed tree, local and through S3, against the same work done with the standard tools in the same run: `tar -czf`
// and `tar -xzf` (GNU tar + gzip) for the local adapter, the same archive uploaded and fetched with the AWS SDK
// directly for S3 (moto's S3 server on loopback, the store the tests use). Every restore is checked against the
// original tree off the clock.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { startS3TestServer } from '@aerie/daemon/testing/s3-server';
import { panelS3, s3Client, sdkDownload, sdkUpload } from './src/backups-s3';
import { startBenchDaemon } from './src/console-daemon';
import { run } from './src/files-archive';
import { benchTempDirectory } from './src/files-cleanup';
import { writeMixedTree } from './src/files-tree';
import { median, mib, printTable, ratio } from './src/measure';
import { treeDigest } from './src/sftp-fixtures';

const rounds = Number(process.env.BENCH_BACKUP_ROUNDS ?? 2);
const partMiB = Number(process.env.BENCH_S3_PART_MIB ?? 64);
const withS3 = process.env.BENCH_BACKUP_S3 !== '0';

const temp = benchTempDirectory('aerie-bench-backups-');
const backupDirectory = path.join(temp.path, 'backups');
const uuid = randomUUID();
const daemon = await startBenchDaemon([fileServerConfiguration(uuid)], {
  env: { DAEMON_BACKUP_DIR: backupDirectory },
});
const s3Server = withS3 ? await startS3TestServer() : undefined;

/** Flushes dirty pages so that no timed step pays for the previous one's writeback. */
const sync = () => spawnSync('sync');
const timed = async (work: () => Promise<unknown>) => {
  sync();
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const expectStatus = (answer: { status: number; body: unknown }, status: number, what: string) => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
};

try {
  const volume = daemon.volume(uuid);
  const tree = await writeMixedTree(volume);
  const original = await treeDigest(volume);
  console.log(
    `tree: ${tree.files} files in ${tree.directories} directories, ${mib(tree.bytes)} (${mib(tree.textBytes)} text, ${mib(tree.randomBytes)} random)`,
  );
  const verify = async (what: string) => {
    const restored = await treeDigest(volume);
    if (restored.sha256 !== original.sha256 || restored.files !== original.files) {
      throw new Error(`${what}: ${restored.files} files restored, not the ${original.files} backed up`);
    }
  };

  const backup = async (adapter: 'wings' | 's3') => {
    const id = randomUUID();
    const ms = await timed(async () => {
      expectStatus(
        await daemon.request('POST', `/api/servers/${uuid}/backup`, { adapter, uuid: id, ignore: '' }),
        202,
        `${adapter} backup`,
      );
      const report = await daemon.panel.waitForBackupReport(id, 600_000);
      if (!report.successful) throw new Error(`the ${adapter} backup failed`);
      if (adapter === 's3') await store?.complete(id, report.parts ?? []);
    });
    return { id, ms };
  };
  const restore = (id: string, adapter: 'wings' | 's3', downloadUrl: string | null) =>
    timed(async () => {
      expectStatus(
        await daemon.request('POST', `/api/servers/${uuid}/backup/${id}/restore`, {
          adapter,
          truncate_directory: true,
          download_url: downloadUrl,
        }),
        202,
        `${adapter} restore`,
      );
      const report = await daemon.panel.waitForRestoreReport(id, 600_000);
      if (!report.successful) throw new Error(`the ${adapter} restore failed`);
    });

  const client = s3Server ? s3Client(s3Server) : undefined;
  const bucket = s3Server ? await s3Server.createBucket('bench-backups') : '';
  const store = client ? panelS3(client, bucket, partMiB * 1024 ** 2) : undefined;
  if (store) daemon.panel.backupParts = (id, size) => store.parts(id, size);

  const samples: Record<string, number[]> = {};
  const add = (name: string, ms: number) => {
    samples[name] = [...(samples[name] ?? []), ms];
  };
  let archiveBytes = 0;
  const tarDirectory = path.join(temp.path, 'tar');
  for (let round = 0; round < rounds; round++) {
    // Local: the daemon's backup and restore, then tar on the same tree and the same archive.
    const local = await backup('wings');
    add('local backup', local.ms);
    const archive = path.join(backupDirectory, `${local.id}.tar.gz`);
    archiveBytes = (await stat(archive)).size;
    add(
      'tar -czf',
      await timed(() => run('tar', ['-czf', path.join(temp.path, 'tar6.tar.gz'), '-C', volume, '.'])),
    );
    add(
      'tar -cf, gzip -1',
      await timed(() =>
        run('tar', ['-I', 'gzip -1', '-cf', path.join(temp.path, 'tar1.tar.gz'), '-C', volume, '.']),
      ),
    );
    add('local restore', await restore(local.id, 'wings', null));
    await verify('local restore');
    await rm(tarDirectory, { recursive: true, force: true });
    await mkdir(tarDirectory);
    add('tar -xzf', await timed(() => run('tar', ['-xzf', archive, '-C', tarDirectory])));

    if (client && store) {
      // S3: the daemon archives, asks the panel for part URLs and PUTs them; the restore GETs a presigned URL.
      const remote = await backup('s3');
      add('s3 backup', remote.ms);
      const baselineArchive = path.join(temp.path, 'sdk.tar.gz');
      add(
        'gzip -1 tar + SDK upload',
        await timed(async () => {
          await run('tar', ['-I', 'gzip -1', '-cf', baselineArchive, '-C', volume, '.']);
          await sdkUpload(client, bucket, `sdk-${remote.id}`, baselineArchive, partMiB * 1024 ** 2);
        }),
      );
      add(
        'SDK upload alone',
        await timed(() => sdkUpload(client, bucket, `sdk2-${remote.id}`, archive, partMiB * 1024 ** 2)),
      );
      add('s3 restore', await restore(remote.id, 's3', await store.download(remote.id)));
      await verify('s3 restore');
      await rm(tarDirectory, { recursive: true, force: true });
      await mkdir(tarDirectory);
      const fetched = path.join(temp.path, 'fetched.tar.gz');
      add(
        'SDK download + tar -xzf',
        await timed(async () => {
          await sdkDownload(client, bucket, remote.id, fetched);
          await run('tar', ['-xzf', fetched, '-C', tarDirectory]);
        }),
      );
    }
  }

  const m = (name: string) => median(samples[name] ?? [Number.NaN]);
  const row = (name: string, baseline: string) => [
    name,
    `${(m(name) / 1000).toFixed(2)} s`,
    `${baseline} ${(m(baseline) / 1000).toFixed(2)} s`,
    ratio(m(name), m(baseline)),
  ];
  console.log(
    `\n${rounds} rounds, medians; the daemon's archive: ${mib(archiveBytes)} (gzip level 1, as Wings' default)${client ? `; S3 parts of ${partMiB} MiB` : ''}`,
  );
  printTable(
    ['', 'Aerie', 'baseline', 'ratio'],
    [
      row('local backup', 'tar -czf'),
      row('local backup', 'tar -cf, gzip -1'),
      row('local restore', 'tar -xzf'),
      ...(client
        ? [
            row('s3 backup', 'gzip -1 tar + SDK upload'),
            row('s3 restore', 'SDK download + tar -xzf'),
            [
              's3 backup minus local backup (the upload)',
              `${((m('s3 backup') - m('local backup')) / 1000).toFixed(2)} s`,
              `SDK upload alone ${(m('SDK upload alone') / 1000).toFixed(2)} s`,
              ratio(m('s3 backup') - m('local backup'), m('SDK upload alone')),
            ],
          ]
        : []),
    ],
  );
} finally {
  await s3Server?.stop();
  await daemon.stop();
  temp.remove();
}
