import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatesStore } from './states-store';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-states-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe('StatesStore', () => {
  it('writes each change at once, so a crash right after it keeps it', async () => {
    const file = path.join(directory, 'states.json');
    const store = new StatesStore(file);
    store.set('a', 'running');
    await expect.poll(async () => readFile(file, 'utf8').catch(() => '')).toContain('"a": "running"');
    expect(await new StatesStore(file).load()).toEqual(new Map([['a', 'running']]));
  });

  it('writes again after a write failed, and leaves no temporary file behind', async () => {
    // The folder is missing: the write fails for real, as on a full or read-only disk.
    const folder = path.join(directory, 'later');
    const file = path.join(folder, 'states.json');
    const store = new StatesStore(file);
    store.set('a', 'running');
    await expect(store.flush()).rejects.toThrow(/ENOENT/);
    await mkdir(folder);
    store.set('b', 'offline');
    await store.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ a: 'running', b: 'offline' });
    expect(await readdir(folder)).toEqual(['states.json']);
  });
});
