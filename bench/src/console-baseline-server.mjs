// The baseline of bench:console: the least a console relay can be. It runs the same game process, splits its
// stdout into lines and sends each to every connected socket as the daemon's `console output` frame, with no
// auth check, no throttle, no per-socket queue. `auth` is answered so the bench's clients work unchanged;
// `send command` goes to the game's stdin. Prints `listening <port>` once ready.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { WebSocketServer } from 'ws';

const game = spawn(process.execPath, [process.env.GAME_SCRIPT ?? ''], { stdio: ['pipe', 'pipe', 'inherit'] });
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });

createInterface({ input: game.stdout }).on('line', (line) => {
  const frame = JSON.stringify({ event: 'console output', args: [line] });
  for (const client of server.clients) client.send(frame);
});
server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.event === 'auth') socket.send(JSON.stringify({ event: 'auth success' }));
    if (message.event === 'send command') game.stdin.write(`${message.args[0]}\n`);
  });
});
server.on('listening', () => console.log(`listening ${server.address().port}`));
const stop = () => {
  game.kill('SIGKILL');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
