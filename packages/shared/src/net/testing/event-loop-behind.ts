/** Blocks this process's event loop for `ms`, as a flood of work would. */
export function blockEventLoop(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy on purpose
  }
}

/**
 * Keeps this process's event loop behind (400 ms blocks, 20 rounds at most) and asks `attempt` after each block,
 * until it returns something: what admission control answered while the loop was late.
 */
export async function whileEventLoopBehind<T>(attempt: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let round = 0; round < 20; round++) {
    blockEventLoop(400);
    // Long enough for the overdue tick to run; every tick in the window is late, so the mean is too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await attempt();
    if (result !== undefined) return result;
  }
  return undefined;
}
