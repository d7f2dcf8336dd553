import { closeSync, mkdirSync, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from './fs-test-support';
import { LIST_DEFAULT_LIMIT } from './list-directory';
import { ServerFilesystem } from './server-filesystem';

let sandbox: Sandbox;
let files: ServerFilesystem;

beforeEach(async () => {
  sandbox = await makeSandbox();
  files = await ServerFilesystem.open({ root: sandbox.root });
});
afterEach(async () => {
  await sandbox.cleanup();
});

/** A folder of `count` files `f0000…` and `directories` folders `d00…`, made in shuffled order. */
async function populate(folder: string, count: number, directories = 0): Promise<string> {
  const directory = path.join(sandbox.root, folder);
  await fs.mkdir(directory);
  const names = [
    ...Array.from({ length: count }, (_, i) => `f${String(i).padStart(4, '0')}.txt`),
    ...Array.from({ length: directories }, (_, i) => `d${String(i).padStart(2, '0')}`),
  ].sort(() => Math.random() - 0.5);
  for (const name of names) {
    if (name.startsWith('d')) await fs.mkdir(path.join(directory, name));
    else await fs.writeFile(path.join(directory, name), name);
  }
  return directory;
}

describe('listing pages', () => {
  it('cuts pages out of the one listing order, directories first, whatever the page size', async () => {
    await populate('mixed', 40, 9);
    await fs.symlink('/etc/passwd', path.join(sandbox.root, 'mixed', 'e-link'));
    const whole = (await files.list('/mixed')).map((entry) => entry.name);
    expect(whole).toHaveLength(50);
    expect(whole.slice(0, 9)).toEqual(['d00', 'd01', 'd02', 'd03', 'd04', 'd05', 'd06', 'd07', 'd08']);
    expect(whole[9]).toBe('e-link');
    for (const limit of [1, 7, 50, 60]) {
      const pages: string[] = [];
      for (let offset = 0; offset < 55; offset += limit) {
        const page = await files.list('/mixed', { offset, limit });
        pages.push(...page.map((entry) => entry.name));
      }
      expect(pages, `pages of ${limit}`).toEqual(whole);
    }
  }, 30_000);

  it(`returns the first ${LIST_DEFAULT_LIMIT} entries when no page is asked for`, async () => {
    await populate('many', LIST_DEFAULT_LIMIT + 5);
    const listed = await files.list('/many');
    expect(listed).toHaveLength(LIST_DEFAULT_LIMIT);
    expect(listed.at(-1)?.name).toBe(`f${String(LIST_DEFAULT_LIMIT - 1).padStart(4, '0')}.txt`);
  }, 30_000);
});

describe('an aborted listing', () => {
  it('rejects with the abort and leaves no descriptor open, before or during the walk', async () => {
    // Enough names that the walk lasts long past the moment it is seen to begin.
    const directory = path.join(sandbox.root, 'walk');
    mkdirSync(directory);
    for (let i = 0; i < 10_000; i += 1) closeSync(openSync(path.join(directory, `n${i}`), 'w'));
    const openOn = async () => {
      let count = 0;
      for (const fd of await fs.readdir('/proc/self/fd')) {
        const target = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => '');
        if (target === directory) count += 1;
      }
      return count;
    };
    const before = new AbortController();
    before.abort();
    await expect(files.list('/walk', { signal: before.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });

    const during = new AbortController();
    const listing = files.list('/walk', { signal: during.signal });
    // Stopped as soon as the daemon holds the folder open: the walk has begun.
    while ((await openOn()) === 0) await new Promise((resolve) => setImmediate(resolve));
    during.abort();
    await expect(listing).rejects.toMatchObject({ name: 'AbortError' });
    expect(await openOn()).toBe(0);
  }, 60_000);
});
