// The network benchmark's game: one TCP server on SERVER_PORT (0.0.0.0 inside a namespace). A connection's first
// byte picks its use: `p` echoes every byte back (latency), `s` swallows everything and answers the byte count
// when the client ends its side (throughput).
import { createServer } from 'node:net';

const server = createServer((socket) => {
  let mode;
  let received = 0;
  socket.on('data', (chunk) => {
    if (mode === undefined) {
      mode = String.fromCharCode(chunk[0]);
      chunk = chunk.subarray(1);
    }
    if (mode === 'p') socket.write(chunk);
    else received += chunk.length;
  });
  socket.on('end', () => socket.end(mode === 's' ? `${received}\n` : undefined));
  socket.on('error', () => socket.destroy());
});
server.listen(Number(process.env.SERVER_PORT), process.env.SERVER_IP || '0.0.0.0', () =>
  console.log('ready'),
);
