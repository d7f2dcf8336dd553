// Test only: a game that prints `flood <count> <bytes>` lines as fast as the pipe takes them.
import { createInterface } from 'node:readline';

process.stdout.write('Server started on flood\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, count, bytes] = line.trim().split(' ');
  if (command === 'stop') process.stdout.write('bye\n', () => process.exit(0));
  if (command !== 'flood') return;
  const padding = 'x'.repeat(Number(bytes));
  let index = 0;
  const write = () => {
    while (index < Number(count)) {
      const more = process.stdout.write(`line ${index} ${padding}\n`);
      index += 1;
      if (!more) return process.stdout.once('drain', write);
    }
    process.stdout.write('flood done\n');
  };
  write();
});
