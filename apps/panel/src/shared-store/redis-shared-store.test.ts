import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { closedPort } from '@aerie/panel/test/closed-port';
import { requireTestRedis, skipWithoutRedis, uniqueRedisPrefix } from '@aerie/panel/test/redis';
import { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySharedStore } from './memory-shared-store';
import { RedisSharedStore } from './redis-shared-store';
import type { SharedStore } from './shared-store';

const silent = { warn: () => {} };
const opened: SharedStore[] = [];
const open = (url: string, prefix: string) => {
  const store = new RedisSharedStore({ url, prefix }, silent);
  opened.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

const counterOf = (store: SharedStore) => store.counter({ name: 'hits', points: 3, windowSeconds: 60 });

describe.skipIf(skipWithoutRedis)('RedisSharedStore (two panel processes on one Redis)', () => {
  it('shares counts between stores of one prefix, and not with another prefix', async () => {
    const url = requireTestRedis();
    const prefix = uniqueRedisPrefix();
    const [one, two] = [counterOf(open(url, prefix)), counterOf(open(url, prefix))];
    await one.consume('key');
    await two.consume('key');
    await one.consume('key');
    const refused = await two.consume('key').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect((refused as RateLimiterRes).msBeforeNext).toBeGreaterThan(0);
    // Another installation on the same Redis counts on its own.
    const other = counterOf(open(url, uniqueRedisPrefix()));
    expect((await other.consume('key')).consumedPoints).toBe(1);
  });

  it('delivers an event to every store subscribed to it, the publisher included', async () => {
    const url = requireTestRedis();
    const prefix = uniqueRedisPrefix();
    const [one, two] = [open(url, prefix), open(url, prefix)];
    const heard: string[] = [];
    const arrived = new Promise<void>((resolve) => {
      two.subscribe('settings-changed', (message) => {
        heard.push(`two:${message}`);
        resolve();
      });
    });
    one.subscribe('settings-changed', (message) => heard.push(`one:${message}`));
    open(url, uniqueRedisPrefix()).subscribe('settings-changed', (message) => heard.push(`other:${message}`));
    // Subscribing is asynchronous: publish until the other process hears it.
    for (let i = 0; i < 50 && !heard.some((line) => line.startsWith('two:')); i++) {
      await one.publish('settings-changed', 'app:name');
      await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
    expect(heard).toContain('two:app:name');
    expect(heard.some((line) => line.startsWith('other:'))).toBe(false);
  });
});

describe('SharedStore without Redis', () => {
  it('counts in memory and hears its own events (one process, no REDIS_URL)', async () => {
    const store = new MemorySharedStore();
    const counter = counterOf(store);
    for (let i = 0; i < 3; i++) await counter.consume('key');
    await expect(counter.consume('key')).rejects.toBeInstanceOf(RateLimiterRes);
    const heard: string[] = [];
    store.subscribe('settings-changed', (message) => heard.push(message));
    await store.publish('settings-changed', 'x');
    expect(heard).toEqual(['x']);
  });

  it('keeps counting in this process while Redis cannot be reached, and logs it', async () => {
    const warnings: string[] = [];
    const store = new RedisSharedStore(
      { url: `redis://127.0.0.1:${await closedPort()}`, prefix: 'unreachable:' },
      { warn: (_context: object | string, message?: string) => warnings.push(String(message)) },
    );
    opened.push(store);
    const counter = counterOf(store);
    for (let i = 0; i < 3; i++) await counter.consume('key');
    await expect(counter.consume('key')).rejects.toBeInstanceOf(RateLimiterRes);
    await store.publish('settings-changed', 'lost');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(warnings[0]).toMatch(/Redis \(REDIS_URL\) cannot be reached/);
  });
});

/** A redis-server of this test's own, which it may stop and hang (never the shared one of the other tests). */
async function ownRedis(): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await closedPort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ready = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid as number,
    stop: () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    },
  };
}

/** The counter's answer, or 'waited' when it took longer than a sign-in may: what a user sees. */
async function consumeWithin(counter: ReturnType<typeof counterOf>, key: string, ms: number) {
  const answer = counter.consume(key).then(
    () => 'counted',
    (error: unknown) => (error instanceof RateLimiterRes ? 'refused' : 'error'),
  );
  return Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('waited'), ms))]);
}

const hasRedisServer = process.env.CI === 'true' || spawnSync('redis-server', ['--version']).status === 0;

describe.runIf(hasRedisServer)('RedisSharedStore while Redis is hung or gone', () => {
  it('counts in this process at once, never waiting seconds, and in Redis again once it is back', {
    timeout: 20_000,
  }, async () => {
    const redis = await ownRedis();
    const inspector = new Redis(redis.url, { lazyConnect: false });
    try {
      const prefix = uniqueRedisPrefix();
      const store = open(redis.url, prefix);
      const counter = store.counter({ name: 'hits', points: 100, windowSeconds: 60 });
      const inRedis = async (key: string) => (await inspector.exists(`${prefix}hits:${key}`)) === 1;
      // Until the store's connection is up, counts go to the insurance: wait for one to reach Redis.
      for (let i = 0; i < 100 && !(await inRedis('up')); i++) {
        await counter.consume('up');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await inRedis('up')).toBe(true);
      // Hung: connected, answering nothing (a stopped process, a full network buffer).
      process.kill(redis.pid, 'SIGSTOP');
      for (let i = 0; i < 3; i++) expect(await consumeWithin(counter, 'hung', 1000)).toBe('counted');
      process.kill(redis.pid, 'SIGCONT');
      for (let i = 0; i < 100 && !(await inRedis('back')); i++) {
        expect(await consumeWithin(counter, 'back', 1000)).toBe('counted');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await inRedis('back')).toBe(true);
      // Gone: the process ended, the connection refused while it reconnects.
      inspector.disconnect();
      redis.stop();
      for (let i = 0; i < 3; i++) expect(await consumeWithin(counter, 'gone', 1000)).toBe('counted');
    } finally {
      inspector.disconnect();
      redis.stop();
    }
  });
});
