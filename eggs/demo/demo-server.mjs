#!/usr/bin/env node
// Aerie Demo: a tiny line-based chat "game" used to try the panel without a real game. Plain Node (>= 18), no
// dependencies, so the process runtime can run it anywhere. It behaves like a game server under Wings: boot
// lines, a start-up line the egg's `done` matcher waits for, console commands on stdin, `stop` to quit.
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

const VERSION = '1.0.0';
const host = process.env.SERVER_IP || '0.0.0.0';
const port = Number(process.env.SERVER_PORT ?? 25565);
const motd = process.env.MOTD || 'Welcome to the Aerie demo server!';
const maxPlayers = Math.max(1, Number.parseInt(process.env.MAX_PLAYERS ?? '', 10) || 10);

/** @type {Map<import('node:net').Socket, string>} */
const players = new Map();
let nextPlayer = 1;
let stopping = false;

const log = (line) => process.stdout.write(`${line}\n`);
const send = (socket, line) => socket.writable && socket.write(`${line}\n`);
const broadcast = (line) => {
  for (const socket of players.keys()) send(socket, line);
};
const onlineText = () =>
  players.size === 0
    ? 'No players online.'
    : `${players.size} of ${maxPlayers} players online: ${[...players.values()].join(', ')}`;

const consoleHelp = [
  'Commands:',
  '  help          show this list',
  '  say <text>    send a message to every player',
  '  list          show who is online',
  '  version       show the server version',
  '  stop          stop the server',
];
const playerHelp = ['Commands: say <text> (talk to everyone), list (who is online), help, quit'];

/** Splits `say hello world` into the command word and the rest of the line. */
const splitCommand = (line) => {
  const trimmed = line.trim();
  const space = trimmed.indexOf(' ');
  return space === -1 ? [trimmed, ''] : [trimmed.slice(0, space), trimmed.slice(space + 1).trim()];
};

function handleConsoleLine(line) {
  const [command, rest] = splitCommand(line);
  if (command === '') return;
  switch (command) {
    case 'help':
      for (const text of consoleHelp) log(text);
      return;
    case 'say':
      if (rest === '') return log('Usage: say <text>');
      log(`[Server] ${rest}`);
      return broadcast(`[Server] ${rest}`);
    case 'list':
      return log(onlineText());
    case 'version':
      return log(`Aerie Demo ${VERSION} (Node ${process.version})`);
    case 'stop':
      return stop();
    default:
      return log(`Unknown command "${command}". Type "help".`);
  }
}

function handlePlayerLine(socket, line) {
  const name = players.get(socket);
  const [command, rest] = splitCommand(line);
  if (command === '' || name === undefined) return;
  switch (command) {
    case 'say':
      if (rest === '') return send(socket, 'Usage: say <text>');
      log(`<${name}> ${rest}`);
      return broadcast(`<${name}> ${rest}`);
    case 'list':
      return send(socket, onlineText());
    case 'help':
      for (const text of playerHelp) send(socket, text);
      return;
    case 'quit':
      send(socket, 'Bye!');
      return socket.end();
    default:
      return send(socket, `Unknown command "${command}". Type "help".`);
  }
}

const server = createServer((socket) => {
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  if (stopping || players.size >= maxPlayers) {
    socket.end(stopping ? 'Server is stopping.\n' : `Server is full (${players.size}/${maxPlayers}).\n`);
    return;
  }
  const name = `player${nextPlayer++}`;
  players.set(socket, name);
  send(socket, `Welcome to Aerie Demo, ${name}! ${motd}`);
  send(socket, 'Type "help" for commands.');
  log(`${name} joined the game (${players.size} online)`);
  broadcast(`* ${name} joined the game`);

  // readline passes the socket's errors on (a player who vanished mid-write): handled, or they would end the game.
  createInterface({ input: socket, crlfDelay: Number.POSITIVE_INFINITY })
    .on('line', (line) => handlePlayerLine(socket, line))
    .on('error', () => socket.destroy());
  socket.on('close', () => {
    if (!players.delete(socket) || stopping) return;
    log(`${name} left the game (${players.size} online)`);
    broadcast(`* ${name} left the game`);
  });
});

function stop() {
  if (stopping) return;
  stopping = true;
  log('Stopping server...');
  broadcast('Server is shutting down. Bye!');
  for (const socket of players.keys()) socket.end();
  // Sockets that do not close within a second are cut so `stop` never hangs.
  setTimeout(() => {
    for (const socket of players.keys()) socket.destroy();
  }, 1000).unref();
  // Exit only once the last line is written: stdout may be a pipe the daemon still reads.
  const finish = () => process.stdout.write('Server stopped.\n', () => process.exit(0));
  if (server.listening) server.close(finish);
  else finish();
}

log(`Aerie Demo ${VERSION} on Node ${process.version}`);
log(`Memory limit: ${process.env.SERVER_MEMORY ? `${process.env.SERVER_MEMORY} MB` : 'not set'}`);
if (process.env.P_SERVER_UUID) log(`Server id: ${process.env.P_SERVER_UUID}`);
log(`Time zone: ${Intl.DateTimeFormat().resolvedOptions().timeZone}`);
log(`Message of the day: ${motd}`);
log(`Preparing a world for up to ${maxPlayers} players...`);

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  log(`SERVER_PORT must be a port number, not "${process.env.SERVER_PORT}".`);
  process.exit(1);
}
server.on('error', (error) => {
  log(`Could not listen on ${host}:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  log(`Server started on ${host}:${bound} — type "help" for commands`);
});

// Console commands may arrive several in one chunk; readline splits them into lines.
createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on('line', handleConsoleLine);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
