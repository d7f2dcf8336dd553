import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DENYLIST_LIMITS, Denylist } from './denylist';
import { buildTar, makeSandbox, readAll, type Sandbox } from './fs-test-support';
import { ServerFilesystem } from './server-filesystem';

/** The backups finding's rule shape (85 characters of nested `**`), which backtracks in a regular expression. */
const PATHOLOGICAL = `**/${'a/**/'.repeat(16)}b/`;
/** As deep as a path gets: 2,048 names, 4,095 characters. */
const DEEP = Array.from({ length: 2048 }, () => 'a');

describe('egg denylist matching', () => {
  it('checks the pathological pattern against a 4,095-character path in at most pattern × path steps', () => {
    const denylist = new Denylist([PATHOLOGICAL]);
    expect(denylist.steps).toBe(0);
    const bound = PATHOLOGICAL.length * DEEP.join('/').length;
    expect(denylist.matches(DEEP)).toBe(false);
    const steps = denylist.steps;
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThanOrEqual(bound);
    // The same shape that does match, as a file below the folder the pattern names, is found as cheaply.
    expect(denylist.matches([...DEEP, 'b', 'server.jar'])).toBe(true);
    expect(denylist.steps - steps).toBeLessThanOrEqual(bound);
  });

  it('compares names case-sensitively, as Wings (the old matcher ignored case)', () => {
    const denylist = new Denylist(['*.jar', '/Config/']);
    expect(denylist.matches(['server.jar'])).toBe(true);
    expect(denylist.matches(['Server.JAR'])).toBe(false);
    expect(denylist.matches(['Config', 'a.yml'])).toBe(true);
    expect(denylist.matches(['config', 'a.yml'])).toBe(false);
  });

  it('lets the last matching pattern win below a denied folder too, as Wings', () => {
    const denylist = new Denylist(['config/', '!config/public.yml']);
    expect(denylist.matches(['config', 'secret.yml'])).toBe(true);
    expect(denylist.matches(['config', 'public.yml'])).toBe(false);
    expect(denylist.matches(['config'])).toBe(true);
  });

  it('tests a path as a file and as a folder, a folder-only negation included', () => {
    const denylist = new Denylist(['data', '!data/']);
    // As a file `data` is denied; as a folder it is taken back: refusing is the safe side.
    expect(denylist.matches(['data'])).toBe(true);
    expect(denylist.matches(['data', 'inside.txt'])).toBe(false);
  });

  it('takes up to the bounds, comments and blanks not counted, and refuses every change past them', () => {
    const most = Array.from({ length: DENYLIST_LIMITS.patterns }, (_, index) => `f${index}`);
    expect(new Denylist(['# note', '', ...most]).matches(['f7'])).toBe(true);
    const tooMany = new Denylist([...most, 'one-more']);
    expect(() => tooMany.matches(['anything.txt'])).toThrow(
      expect.objectContaining({
        code: 'EDENIED',
        status: 403,
        message: `Files cannot be modified: the egg's file denylist has ${DENYLIST_LIMITS.patterns + 1} patterns, at most ${DENYLIST_LIMITS.patterns} are allowed. An administrator must shorten the egg's file denylist.`,
      }),
    );
    const full = 'x'.repeat(DENYLIST_LIMITS.characters);
    expect(new Denylist([`  ${full}  `]).matches([full])).toBe(true);
    expect(() => new Denylist([`${full}y`]).matches(['other'])).toThrow(
      `the egg's file denylist has ${DENYLIST_LIMITS.characters + 1} characters of patterns, at most ${DENYLIST_LIMITS.characters} are allowed.`,
    );
  });
});

describe('a denylist past its bounds on the filesystem', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await makeSandbox();
  });
  afterEach(() => sandbox.cleanup());
  const onDisk = (relative: string) => path.join(sandbox.root, relative);

  it('refuses writes, archives and restores before anything changes, and still lets files be read', async () => {
    await fs.writeFile(onDisk('server.properties'), 'motd=hi\n');
    await fs.writeFile(onDisk('in.tar'), await buildTar([{ name: 'new.txt', content: 'new' }]));
    const tooMany = Array.from({ length: DENYLIST_LIMITS.patterns + 1 }, (_, index) => `f${index}`);
    const files = await ServerFilesystem.open({ root: sandbox.root, denylist: tooMany });
    const refused = {
      code: 'EDENIED',
      status: 403,
      message: expect.stringContaining(`at most ${DENYLIST_LIMITS.patterns} are allowed`),
    };

    await expect(files.writeFile('free.txt', 'x')).rejects.toMatchObject(refused);
    await expect(files.archives.decompress('/', 'in.tar')).rejects.toMatchObject(refused);
    const backup = await fs.open(onDisk('in.tar'), 'r');
    try {
      await expect(files.archives.extractFrom(backup, { truncate: true })).rejects.toMatchObject(refused);
    } finally {
      await backup.close();
    }
    expect((await fs.readdir(sandbox.root)).sort()).toEqual(['in.tar', 'server.properties']);
    expect(await readAll((await files.readFile('server.properties')).stream)).toBe('motd=hi\n');
  });
});
