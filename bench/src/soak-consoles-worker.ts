// The console sockets of bench:soak on a thread of their own (see soak-consoles-thread.ts).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openSoakConsoles } from './soak-consoles';
import type { ConsoleCommand, ConsoleThreadOptions } from './soak-consoles-thread';

const port = parentPort;
if (!port) throw new Error('soak-consoles-worker runs as a worker thread');
const options = workerData as ConsoleThreadOptions;
const consoles = await openSoakConsoles(options);
const lag = monitorEventLoopDelay({ resolution: 10 });
let commands: NodeJS.Timeout | undefined;

port.on('message', ({ id, command }: { id: number; command: ConsoleCommand }) => {
  let value: unknown;
  if (command.kind === 'start') {
    consoles.reset();
    lag.reset();
    lag.enable();
    commands = setInterval(() => consoles.sendCommands(), command.commandMs);
  } else if (command.kind === 'stop') {
    clearInterval(commands);
  } else if (command.kind === 'result') {
    lag.disable();
    value = { ...consoles.result(), loopDelayP99Ms: lag.percentile(99) / 1e6 };
  } else {
    consoles.close();
  }
  port.postMessage({ id, value });
});
port.postMessage({ id: 0, value: 'ready' });
