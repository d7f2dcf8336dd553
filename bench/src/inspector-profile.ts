import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

/** Node opens its inspector here on SIGUSR1. */
const INSPECTOR = 'http://127.0.0.1:9229';

/**
 * A CPU profile of a running Node process over `seconds`, written to `file`: SIGUSR1 opens its inspector, the
 * profiler runs through the DevTools protocol, then the inspector is closed again. For processes that another one
 * starts (the daemon of `aerie up`), where `--cpu-prof` cannot be given and NODE_OPTIONS refuses it. One process at
 * a time: every inspector opened this way listens on the same port.
 */
export async function profileRunningProcess(pid: number, seconds: number, file: string): Promise<void> {
  const profiler = await startProfiling(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await profiler.stop(file);
}

/** The same, started now and stopped when asked: the profile of whatever ran in between. */
export async function startProfiling(pid: number): Promise<{ stop: (file: string) => Promise<void> }> {
  process.kill(pid, 'SIGUSR1');
  const target = await inspectorTarget();
  const ws = new WebSocket(target);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: { message: string };
        };
        if (message.id !== id) return;
        ws.off('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result ?? {});
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call('Profiler.enable');
  await call('Profiler.start');
  return {
    stop: async (file) => {
      try {
        const { profile } = await call('Profiler.stop');
        writeFileSync(file, JSON.stringify(profile));
        // Closes the inspector this opened, so the port is free for the next process (no answer comes back).
        ws.send(
          JSON.stringify({
            id: 0,
            method: 'Runtime.evaluate',
            params: { expression: 'process._debugEnd()' },
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
      } finally {
        ws.terminate();
      }
    },
  };
}

async function inspectorTarget(): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const targets = (await (await fetch(`${INSPECTOR}/json/list`)).json()) as {
        webSocketDebuggerUrl: string;
      }[];
      const url = targets[0]?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the inspector did not open');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
