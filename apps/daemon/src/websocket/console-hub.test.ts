import { EventEmitter } from 'node:events';
import type { ConsoleServer, ConsoleServerEvents } from '@aerie/daemon/server/console-server';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConsoleHub } from './console-hub';

/** Just enough of a managed server: its events and the suspension hook. */
class FakeServer extends EventEmitter<ConsoleServerEvents> {
  readonly uuid = 'fake';
  readonly suspendListeners = new Set<() => void>();
  onSuspend(listener: () => void) {
    this.suspendListeners.add(listener);
    return () => this.suspendListeners.delete(listener);
  }
}

function hubWithLog() {
  const errors: unknown[] = [];
  const log = { error: (object: unknown) => errors.push(object) } as unknown as FastifyBaseLogger;
  return { hub: new ConsoleHub(log), errors };
}

const asServer = (server: FakeServer) => server as unknown as ConsoleServer;

describe('ConsoleHub', () => {
  it('holds one listener per event on the server while anyone follows it, none after', () => {
    const { hub } = hubWithLog();
    const server = new FakeServer();
    const stops = Array.from({ length: 20 }, () => [
      hub.on(asServer(server), 'console output', () => {}),
      hub.on(asServer(server), 'suspend', () => {}),
    ]).flat();
    expect(server.listenerCount('console output')).toBe(1);
    expect(server.suspendListeners.size).toBe(1);
    for (const stop of stops) stop();
    expect(server.listenerCount('console output')).toBe(0);
    expect(server.suspendListeners.size).toBe(0);
    expect(hub.serverCount).toBe(0);
  });

  it('goes on past a listener that throws, and skips one that left while the event went round', () => {
    const { hub, errors } = hubWithLog();
    const server = new FakeServer();
    const got: string[] = [];
    hub.on(asServer(server), 'console output', (line) => got.push(`a ${line}`));
    hub.on(asServer(server), 'console output', () => {
      stopC();
      throw new Error('broken socket');
    });
    const stopC = hub.on(asServer(server), 'console output', (line) => got.push(`c ${line}`));
    hub.on(asServer(server), 'console output', (line) => got.push(`d ${line}`));
    server.emit('console output', 'one');
    server.emit('console output', 'two');
    expect(got).toEqual(['a one', 'd one', 'a two', 'd two']);
    expect(errors).toHaveLength(2);
  });

  it('calls each listener in the order it subscribed, and a stop twice is harmless', () => {
    const { hub } = hubWithLog();
    const server = new FakeServer();
    const got: number[] = [];
    const stop = hub.on(asServer(server), 'status', () => got.push(1));
    hub.on(asServer(server), 'status', () => got.push(2));
    server.emit('status', 'running');
    stop();
    stop();
    server.emit('status', 'offline');
    expect(got).toEqual([1, 2, 2]);
    expect(server.listenerCount('status')).toBe(1);
  });
});
