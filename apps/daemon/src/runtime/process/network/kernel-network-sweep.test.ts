import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@aerie/daemon/runtime/docker/docker-test-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespaceName } from './game-network-plan';
import { KernelNetwork } from './kernel-network';

/**
 * A daemon that boots again keeps the networks of the games it adopted and ends the rest: a server deleted while
 * no daemon was there, or a namespace that went without taking its forwarded ports. Needs root with nftables.
 */
const available = process.getuid?.() === 0 && existsSync('/usr/sbin/nft');
const find = (name: string) =>
  ['/usr/sbin', '/usr/bin', '/sbin', '/bin'].map((folder) => path.join(folder, name)).find(existsSync);

let dataDirectory: string;
let network: KernelNetwork;
const made: string[] = [];

beforeAll(async () => {
  if (!available) return;
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-sweep-'));
  const detected = await KernelNetwork.detect({ allowed: [], find, dataDirectory });
  if (typeof detected === 'string') throw new Error(detected);
  network = detected;
});
afterAll(async () => {
  if (!available) return;
  for (const uuid of made) await network.release(uuid);
  await rm(dataDirectory, { recursive: true, force: true });
});

const published = () =>
  execFileSync('nft', ['list', 'map', 'ip', 'aerie', 'published'], { encoding: 'utf8' });
const run = async (port: number) => {
  const uuid = randomUUID();
  made.push(uuid);
  await network.enter(uuid, { default: { ip: '127.0.0.1', port }, mappings: {} });
  return uuid;
};

describe.runIf(available)('the boot-time sweep of game networks', () => {
  it('ends the networks of runs no server runs any more, and keeps the running ones', async () => {
    const [kept, deleted, vanished] = [await freePort(), await freePort(), await freePort()];
    const running = await run(kept);
    const gone = await run(deleted);
    const orphan = await run(vanished);
    // A namespace removed behind the daemon's back: its forwarded port would otherwise stay.
    execFileSync('ip', ['netns', 'delete', namespaceName(orphan)]);
    expect(published()).toContain(`. ${vanished} :`);

    expect(await network.sweep(new Set([running]))).toBe(2);
    expect(existsSync(`/run/netns/${namespaceName(running)}`)).toBe(true);
    expect(existsSync(`/run/netns/${namespaceName(gone)}`)).toBe(false);
    const ports = published();
    expect(ports).toContain(`. ${kept} :`);
    expect(ports).not.toContain(`. ${deleted} :`);
    expect(ports).not.toContain(`. ${vanished} :`);
  });
});
