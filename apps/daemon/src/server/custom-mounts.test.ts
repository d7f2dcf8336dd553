import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWithin, type MountPolicy, resolveCustomMounts } from './custom-mounts';

let host: string;
let policy: MountPolicy;

beforeAll(async () => {
  host = await mkdtemp(path.join(tmpdir(), 'aerie-mounts-'));
  for (const folder of ['mnt/a/maps', 'mnt/abc', 'etc', 'data/volumes/other', 'backups'])
    await mkdir(path.join(host, folder), { recursive: true });
  await writeFile(path.join(host, 'mnt/a/file.txt'), 'x');
  // Links a game or a careless admin could leave where a mount's source points.
  await symlink(path.join(host, 'etc'), path.join(host, 'mnt/a/escape'));
  await symlink(path.join(host, 'mnt/a/maps'), path.join(host, 'mnt/abc/inside'));
  await symlink(path.join(host, 'data/volumes'), path.join(host, 'mnt/a/volumes'));
  policy = {
    allowed: [path.join(host, 'mnt/a')],
    protectedPaths: [path.join(host, 'data'), path.join(host, 'backups')],
  };
});
afterAll(() => rm(host, { recursive: true, force: true }));

const mount = (source: string, target = '/mnt/shared', read_only = true) => ({
  source: source.startsWith('/') ? source : path.join(host, source),
  target,
  read_only,
});

describe('isWithin', () => {
  it('compares whole names, not string prefixes', () => {
    expect(isWithin('/mnt/a', '/mnt/a')).toBe(true);
    expect(isWithin('/mnt/a/b', '/mnt/a')).toBe(true);
    expect(isWithin('/mnt/abc', '/mnt/a')).toBe(false);
    expect(isWithin('/anything', '/')).toBe(true);
  });
});

describe('resolveCustomMounts', () => {
  it('attaches a source within an allowed path, resolved, with its read-only flag', async () => {
    const { mounts, refused } = await resolveCustomMounts(
      [mount('mnt/a/maps', '/mnt/maps'), mount('mnt/abc/../a', '/srv/all', false)],
      policy,
    );
    expect(refused).toEqual([]);
    expect(mounts).toEqual([
      { source: path.join(host, 'mnt/a/maps'), target: '/mnt/maps', readOnly: true },
      { source: path.join(host, 'mnt/a'), target: '/srv/all', readOnly: false },
    ]);
  });

  it('refuses a source that only shares a string prefix with an allowed path (Wings allows /mnt/abc for /mnt/a)', async () => {
    const { mounts, refused } = await resolveCustomMounts([mount('mnt/abc')], policy);
    expect(mounts).toEqual([]);
    expect(refused).toEqual([
      { target: '/mnt/shared', reason: 'its source is not within the allowed mounts of this node' },
    ]);
  });

  it('follows links before checking: out of an allowed path is refused, into one is allowed', async () => {
    const outward = await resolveCustomMounts([mount('mnt/a/escape')], policy);
    expect(outward.refused[0]?.reason).toBe('its source is not within the allowed mounts of this node');
    const inside = await resolveCustomMounts([mount('mnt/abc/inside')], policy);
    expect(inside.mounts).toEqual([
      { source: path.join(host, 'mnt/a/maps'), target: '/mnt/shared', readOnly: true },
    ]);
  });

  it("never shows the daemon's data or backups, even when an allowed path holds them or a link leads there", async () => {
    const wide = { ...policy, allowed: [host] };
    const { mounts, refused } = await resolveCustomMounts(
      [
        mount('data/volumes/other', '/x'),
        mount('mnt/a/volumes', '/y'),
        mount(host, '/z'),
        mount('backups', '/w'),
      ],
      wide,
    );
    expect(mounts).toEqual([]);
    expect(refused.map((each) => each.reason)).toEqual(
      Array(4).fill("its source overlaps the daemon's own data"),
    );
  });

  it('refuses reserved, relative and repeated targets, missing and non-directory sources, and allows nothing by default', async () => {
    const { mounts, refused } = await resolveCustomMounts(
      [
        mount('mnt/a/maps', '/home/container'),
        mount('mnt/a/maps', '/home/container/../container/maps'),
        mount('mnt/a/maps', '/proc/self'),
        mount('mnt/a/maps', '/'),
        mount('mnt/a/maps', 'relative'),
        mount('mnt/a/maps', '/mnt/one'),
        mount('mnt/a', '/mnt/one/'),
        mount('mnt/a/missing', '/mnt/two'),
        mount('mnt/a/file.txt', '/mnt/three'),
        mount('relative/source', '/mnt/four'),
      ],
      policy,
    );
    expect(mounts.map((each) => each.target)).toEqual(['/mnt/one']);
    expect(refused.map((each) => each.reason)).toEqual([
      '/home/container is reserved',
      '/home/container/maps is reserved',
      '/proc/self is reserved',
      '/ is reserved',
      'its target is not an absolute path',
      'another mount has the same target',
      'its source does not exist on this node',
      'its source is not a directory',
      'its source does not exist on this node',
    ]);
    const none = await resolveCustomMounts([mount('mnt/a/maps')], { ...policy, allowed: [] });
    expect(none.mounts).toEqual([]);
  });
});
