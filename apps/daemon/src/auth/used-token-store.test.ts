import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsedTokenStore } from './used-token-store';

let directory: string;
let file: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-used-tokens-'));
  file = path.join(directory, 'used-file-tokens.json');
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const seconds = (ms: number) => Math.floor(ms / 1000);

describe('UsedTokenStore', () => {
  it('lets an id through once, also for a new store on the same file (a daemon restart)', async () => {
    const exp = seconds(Date.now()) + 900;
    const first = new UsedTokenStore(file);
    expect(await first.claim('abc', exp)).toBe(true);
    expect(await first.claim('abc', exp)).toBe(false);
    expect(await first.claim('def', exp)).toBe(true);
    const restarted = new UsedTokenStore(file);
    expect(await restarted.claim('abc', exp)).toBe(false);
    expect(await restarted.claim('def', exp)).toBe(false);
    expect(await restarted.claim('ghi', exp)).toBe(true);
  });

  it('lets only one of many concurrent claims of the same id through', async () => {
    const store = new UsedTokenStore(file);
    const exp = seconds(Date.now()) + 900;
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim('same', exp)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ same: exp });
  });

  it('forgets ids once they are well past their expiry', async () => {
    let now = Date.now();
    const store = new UsedTokenStore(file, { now: () => now });
    await store.claim('old', seconds(now) + 60);
    now += 60_000 + 301_000;
    await store.claim('new', seconds(now) + 900);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')))).toEqual(['new']);
  });

  it('refuses an empty or oversized id, and survives a damaged file', async () => {
    await writeFile(file, '{"half":');
    const store = new UsedTokenStore(file);
    expect(await store.claim('', 1e10)).toBe(false);
    expect(await store.claim('x'.repeat(129), 1e10)).toBe(false);
    expect(await store.claim('fresh', 1e10)).toBe(true);
  });

  it('fails the claim when the mark cannot be written', async () => {
    const store = new UsedTokenStore(path.join(directory, 'missing-folder', 'used.json'));
    await expect(store.claim('abc', 1e10)).rejects.toThrow();
  });
});
