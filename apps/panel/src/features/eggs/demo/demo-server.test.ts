import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { bundledEggsDir, demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { doneMatcher } from '@aerie/shared/eggs/done-matcher';
import { afterEach, describe, expect, it } from 'vitest';
import { connectPlayer, killLeftovers, startProgram } from './line-harness';

const serverScript = join(bundledEggsDir, 'demo', 'demo-server.mjs');
const egg = parseEggExportText(readFileSync(demoEggPath, 'utf8'));
const isStarted = doneMatcher(egg.config);

afterEach(killLeftovers);

/** A port nobody listens on right now, as the panel would allocate one. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** Starts the demo server the way the daemon does: the Wings environment, then wait for the done line. */
async function startDemo(env: Record<string, string> = {}) {
  const program = startProgram(process.execPath, [serverScript], {
    env: {
      PATH: process.env.PATH ?? '',
      TZ: 'Europe/Berlin',
      SERVER_IP: '127.0.0.1',
      SERVER_PORT: '0',
      ...env,
    },
  });
  const started = await program.output.waitFor(isStarted);
  const port = Number(/:(\d+) /.exec(started)?.[1]);
  return { ...program, started, port };
}

describe('demo server console', () => {
  it('boots on a free port, prints the done line the egg waits for, and answers console commands', async () => {
    const port = await freePort();
    const demo = await startDemo({
      SERVER_PORT: String(port),
      SERVER_MEMORY: '512',
      P_SERVER_UUID: 'c6a1a6a0-5f0e-4b7c-8a43-0d2f4b1e9a77',
    });
    expect(demo.started).toBe(`Server started on 127.0.0.1:${port} — type "help" for commands`);
    expect(demo.output.lines).toEqual(
      expect.arrayContaining([
        'Memory limit: 512 MB',
        'Server id: c6a1a6a0-5f0e-4b7c-8a43-0d2f4b1e9a77',
        'Time zone: Europe/Berlin',
        'Message of the day: Welcome to the Aerie demo server!',
      ]),
    );
    // Boot lines come before the done line, so a panel shows them while the server is "starting".
    expect(demo.output.lines.indexOf(demo.started)).toBeGreaterThan(3);

    demo.send('help');
    await demo.output.waitFor('  stop          stop the server');
    expect(demo.output.lines).toContain('  say <text>    send a message to every player');
    demo.send('version');
    expect(await demo.output.waitFor('Aerie Demo 1.0.0 (Node')).toBe(
      `Aerie Demo 1.0.0 (Node ${process.version})`,
    );
    demo.send('list');
    await demo.output.waitFor('No players online.');
    demo.send('teleport home');
    await demo.output.waitFor('Unknown command "teleport". Type "help".');
    demo.send('say');
    await demo.output.waitFor('Usage: say <text>');

    demo.send('stop');
    expect(await demo.exited()).toBe(0);
    expect(demo.output.lines.slice(-2)).toEqual(['Stopping server...', 'Server stopped.']);
    expect(demo.errors.lines).toEqual([]);
  });

  it('runs every command of one chunk, the last being stop', async () => {
    const demo = await startDemo();
    demo.child.stdin?.write('version\nlist\nsay all at once\nstop\n');
    expect(await demo.exited()).toBe(0);
    const afterStart = demo.output.lines.slice(demo.output.lines.indexOf(demo.started) + 1);
    expect(afterStart).toEqual([
      `Aerie Demo 1.0.0 (Node ${process.version})`,
      'No players online.',
      '[Server] all at once',
      'Stopping server...',
      'Server stopped.',
    ]);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('stops cleanly on %s', async (signal) => {
    const demo = await startDemo();
    const player = await connectPlayer(demo.port);
    await demo.output.waitFor('player1 joined the game');
    demo.child.kill(signal);
    expect(await demo.exited()).toBe(0);
    await player.closed;
    expect(player.lines.lines).toContain('Server is shutting down. Bye!');
    expect(demo.output.lines.slice(-2)).toEqual(['Stopping server...', 'Server stopped.']);
  });

  it('refuses a SERVER_PORT that is not a port number', async () => {
    const demo = startProgram(process.execPath, [serverScript], {
      env: { PATH: process.env.PATH ?? '', SERVER_PORT: '25565x' },
    });
    expect(await demo.exited()).toBe(1);
    expect(demo.output.lines.at(-1)).toBe('SERVER_PORT must be a port number, not "25565x".');
  });

  it('says so and exits 1 when its port is taken', async () => {
    const first = await startDemo();
    const second = startProgram(process.execPath, [serverScript], {
      env: { PATH: process.env.PATH ?? '', SERVER_IP: '127.0.0.1', SERVER_PORT: String(first.port) },
    });
    expect(await second.exited()).toBe(1);
    expect(second.output.lines.at(-1)).toMatch(
      new RegExp(`^Could not listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE`),
    );
    expect(second.output.lines.some(isStarted)).toBe(false);
    first.send('stop');
    expect(await first.exited()).toBe(0);
  });
});

describe('demo server players', () => {
  it('greets players with the MOTD and broadcasts what they say', async () => {
    const demo = await startDemo({ MOTD: 'Have fun!' });
    const alice = await connectPlayer(demo.port);
    expect(await alice.lines.waitFor('Welcome')).toBe('Welcome to Aerie Demo, player1! Have fun!');
    const bob = await connectPlayer(demo.port);
    await bob.lines.waitFor('Welcome to Aerie Demo, player2! Have fun!');
    await alice.lines.waitFor('* player2 joined the game');
    await demo.output.waitFor('player2 joined the game (2 online)');

    alice.send('say hello everyone');
    await bob.lines.waitFor('<player1> hello everyone');
    await alice.lines.waitFor('<player1> hello everyone');
    await demo.output.waitFor('<player1> hello everyone');

    demo.send('say welcome from the console');
    await alice.lines.waitFor('[Server] welcome from the console');
    await bob.lines.waitFor('[Server] welcome from the console');

    demo.send('list');
    await demo.output.waitFor('2 of 10 players online: player1, player2');
    bob.send('list');
    await bob.lines.waitFor('2 of 10 players online: player1, player2');
    bob.send('dance');
    await bob.lines.waitFor('Unknown command "dance". Type "help".');

    bob.send('quit');
    await bob.lines.waitFor('Bye!');
    await bob.closed;
    await demo.output.waitFor('player2 left the game (1 online)');
    await alice.lines.waitFor('* player2 left the game');

    demo.send('stop');
    expect(await demo.exited()).toBe(0);
    await alice.closed;
    expect(alice.lines.lines.at(-1)).toBe('Server is shutting down. Bye!');
  });

  it('keeps running when a player’s connection is reset while it writes to them', async () => {
    const demo = await startDemo();
    const gone = await connectPlayer(demo.port);
    await gone.lines.waitFor('Welcome');
    const stays = await connectPlayer(demo.port);
    await stays.lines.waitFor('Welcome');
    gone.socket.resetAndDestroy();
    // Each broadcast writes to the reset socket until the game notices it is gone.
    for (let i = 0; i < 20; i++) demo.send(`say ping ${i}`);
    await stays.lines.waitFor('[Server] ping 19');
    const after = await connectPlayer(demo.port);
    await after.lines.waitFor('Welcome');
    demo.send('stop');
    expect(await demo.exited()).toBe(0);
  });

  it('turns players away once MAX_PLAYERS are online', async () => {
    const demo = await startDemo({ MAX_PLAYERS: '1' });
    const first = await connectPlayer(demo.port);
    await first.lines.waitFor('Welcome');
    const second = await connectPlayer(demo.port);
    await second.closed;
    expect(second.lines.lines).toEqual(['Server is full (1/1).']);
    demo.send('stop');
    expect(await demo.exited()).toBe(0);
  });
});
