import { describe, expect, it } from 'vitest';
import { POWER_LOCKED_MESSAGE, PowerLock } from './power-lock';

describe('PowerLock', () => {
  it('hands the lock to waiters in arrival order and frees it after the last one', async () => {
    const lock = new PowerLock();
    const order: string[] = [];
    const first = await lock.acquire(0);
    const second = lock.acquire(1000).then((release) => {
      order.push('second');
      return release;
    });
    const third = lock.acquire(1000).then((release) => {
      order.push('third');
      release();
    });
    expect(lock.held).toBe(true);
    first();
    (await second)();
    await third;
    expect(order).toEqual(['second', 'third']);
    expect(lock.held).toBe(false);
  });

  it('refuses at once without a wait, and after the wait runs out', async () => {
    const lock = new PowerLock();
    const release = await lock.acquire(0);
    await expect(lock.acquire(0)).rejects.toThrow(POWER_LOCKED_MESSAGE);
    await expect(lock.acquire(50)).rejects.toThrow(POWER_LOCKED_MESSAGE);
    release();
    // The waiter that gave up is gone: the lock is free, not passed to nobody.
    expect(lock.held).toBe(false);
    (await lock.acquire(0))();
  });

  it('ignores a second release', async () => {
    const lock = new PowerLock();
    const release = await lock.acquire(0);
    release();
    const again = await lock.acquire(0);
    release();
    expect(lock.held).toBe(true);
    again();
    expect(lock.held).toBe(false);
  });
});
