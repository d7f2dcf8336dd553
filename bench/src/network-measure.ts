import { connect, type Socket } from 'node:net';

/** What one target (the host network or a namespace) gave: connection set-up, round trip, throughput. */
export interface NetworkFigures {
  /** Median µs from connect() to the first echoed byte of a new connection. */
  connectMicros: number;
  /** Median µs of one byte's round trip on an open connection. */
  roundTripMicros: number;
  /** MiB/s of one connection pushing bytes to the game until it has them all. */
  throughputMiBs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function echo(socket: Socket, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    socket.once('data', () => resolve());
    socket.write(bytes);
  });
}

/** Measures the game on 127.0.0.1:port: `connections` new connections, `trips` round trips, `mebibytes` pushed. */
export async function measureGamePort(
  port: number,
  options: { connections: number; trips: number; mebibytes: number },
): Promise<NetworkFigures> {
  const connects: number[] = [];
  for (let i = 0; i < options.connections; i++) {
    const began = process.hrtime.bigint();
    const socket = await open(port);
    await echo(socket, Buffer.from('px'));
    connects.push(Number(process.hrtime.bigint() - began) / 1000);
    socket.destroy();
  }
  const socket = await open(port);
  await echo(socket, Buffer.from('px'));
  const trips: number[] = [];
  const one = Buffer.from('x');
  for (let i = 0; i < options.trips; i++) {
    const began = process.hrtime.bigint();
    await echo(socket, one);
    trips.push(Number(process.hrtime.bigint() - began) / 1000);
  }
  socket.destroy();
  return {
    connectMicros: median(connects),
    roundTripMicros: median(trips),
    throughputMiBs: await push(port, options.mebibytes),
  };
}

async function push(port: number, mebibytes: number): Promise<number> {
  const socket = await open(port);
  const chunk = Buffer.alloc(1024 * 1024, 7);
  const began = process.hrtime.bigint();
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (part: string) => {
      text += part;
    });
    socket.once('end', () => resolve(text.trim()));
  });
  socket.write('s');
  for (let i = 0; i < mebibytes; i++) {
    if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
  }
  socket.end();
  const received = Number(await answer);
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  if (received !== mebibytes * 1024 * 1024)
    throw new Error(`the game got ${received} bytes of ${mebibytes} MiB`);
  socket.destroy();
  return mebibytes / seconds;
}
