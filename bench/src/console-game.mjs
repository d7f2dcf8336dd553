// The bench's game process, run by the daemon's process runtime (and by the bare baseline broadcaster). Console:
//   flood <count>         print <count> lines as fast as the pipe takes them, then `flood done <count> <ms>`
//   tick <count> <rate>   print <count> lines at <rate> lines per second, then `tick done`
//   stop                  exit
// Every line is `L <index> <monotonic ns> <padding>`: process.hrtime is CLOCK_MONOTONIC, one clock for every
// process on the host, so a client subtracting its own hrtime gets the line's end-to-end latency.
import { createInterface } from 'node:readline';

const PADDING = 'x'.repeat(56);
const line = (index) => `L ${index} ${process.hrtime.bigint()} ${PADDING}\n`;
// The done line waits out the daemon's 100 ms throttle window so it is never the line that gets dropped.
const DONE_DELAY_MS = 500;

function flood(count) {
  const started = performance.now();
  let index = 0;
  const write = () => {
    while (index < count) {
      const more = process.stdout.write(line(index));
      index += 1;
      if (!more) return process.stdout.once('drain', write);
    }
    const elapsed = (performance.now() - started).toFixed(1);
    setTimeout(() => process.stdout.write(`flood done ${count} ${elapsed}\n`), DONE_DELAY_MS);
  };
  write();
}

function tick(count, rate) {
  const started = performance.now();
  let index = 0;
  const step = () => {
    const due = Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    while (index < due) {
      process.stdout.write(line(index));
      index += 1;
    }
    if (index < count) setTimeout(step, 1);
    else setTimeout(() => process.stdout.write('tick done\n'), DONE_DELAY_MS);
  };
  step();
}

process.stdout.write('Server started on bench\n');
createInterface({ input: process.stdin }).on('line', (input) => {
  const [command, first, second] = input.trim().split(' ');
  if (command === 'stop') process.stdout.write('bye\n', () => process.exit(0));
  if (command === 'flood') flood(Number(first));
  if (command === 'tick') tick(Number(first), Number(second));
});
