import { describe, expect, it } from 'vitest';
import { BatchedLoader, ConcurrencyGate, retryOnConflict, sleep } from './batching';

describe('BatchedLoader', () => {
  it('loads the keys asked for in one turn with one call, and those asked meanwhile with the next', async () => {
    const calls: number[][] = [];
    const loader = new BatchedLoader(async (keys: number[]) => {
      calls.push(keys);
      return new Map(keys.map((key) => [key, key * 10]));
    });
    const first = await Promise.all([loader.get(1), loader.get(2), loader.get(2), loader.get(3)]);
    expect(first).toEqual([10, 20, 20, 30]);
    expect(calls).toEqual([[1, 2, 3]]);
    expect(await loader.get(4)).toBe(40);
    expect(calls).toHaveLength(2);
  });

  it('passes a failed load on to every caller of that batch', async () => {
    const loader = new BatchedLoader<number, number>(async () => {
      throw new Error('down');
    });
    await expect(Promise.all([loader.get(1), loader.get(2)])).rejects.toThrow('down');
  });
});

describe('ConcurrencyGate', () => {
  it('keeps at most its limit of calls running', async () => {
    const gate = new ConcurrencyGate(3);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        gate.run(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
  });
});

describe('retryOnConflict', () => {
  it.each(['40P01', 'ER_LOCK_DEADLOCK', 'SQLITE_BUSY'])('runs the work again after a %s', async (code) => {
    let tries = 0;
    const result = await retryOnConflict(async () => {
      tries += 1;
      if (tries < 3) throw Object.assign(new Error('conflict'), { code });
      return 'done';
    });
    expect([result, tries]).toEqual(['done', 3]);
  });

  it('gives up after its attempts, and never retries other errors', async () => {
    let tries = 0;
    const deadlock = () => {
      tries += 1;
      return Promise.reject(Object.assign(new Error('deadlock'), { code: '40P01' }));
    };
    await expect(retryOnConflict(deadlock, 2)).rejects.toThrow('deadlock');
    expect(tries).toBe(2);
    tries = 0;
    await expect(
      retryOnConflict(() => {
        tries += 1;
        return Promise.reject(Object.assign(new Error('duplicate'), { code: '23505' }));
      }),
    ).rejects.toThrow('duplicate');
    expect(tries).toBe(1);
  });
});

describe('sleep', () => {
  it('ends early, without error, when its signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
