import type { ConsoleServer, ConsoleServerEvents } from '@aerie/daemon/server/console-server';
import type { FastifyBaseLogger } from 'fastify';

/** What a console socket follows: the server's events, and `suspend` (a managed server's own hook). */
export type HubEvents = ConsoleServerEvents & { suspend: [] };
export type HubEvent = keyof HubEvents;
type HubListener<E extends HubEvent> = (...args: HubEvents[E]) => void;

/** A managed server tells when a sync suspends it; the test servers have no such hook. */
type SuspendWatch = { onSuspend?(listener: () => void): () => void };

interface Subscription {
  listener: (...args: unknown[]) => void;
  active: boolean;
}

/**
 * The listeners of one server, one event at a time: a single listener on the server per event while at least one
 * socket follows it, handing each event to the sockets in the order they subscribed.
 */
class ServerFanout {
  readonly #server: ConsoleServer;
  readonly #log: FastifyBaseLogger;
  /** Replaced, never changed in place: an event going round keeps the list it started with. */
  readonly #subscriptions = new Map<HubEvent, readonly Subscription[]>();
  readonly #detach = new Map<HubEvent, () => void>();

  constructor(server: ConsoleServer, log: FastifyBaseLogger) {
    this.#server = server;
    this.#log = log;
  }

  get isEmpty(): boolean {
    return this.#subscriptions.size === 0;
  }

  add(event: HubEvent, subscription: Subscription): void {
    const current = this.#subscriptions.get(event);
    this.#subscriptions.set(event, [...(current ?? []), subscription]);
    if (!current) this.#detach.set(event, this.#attach(event));
  }

  remove(event: HubEvent, subscription: Subscription): void {
    // Inactive at once: a socket that closes while an event goes round gets nothing more of it.
    subscription.active = false;
    const rest = (this.#subscriptions.get(event) ?? []).filter((other) => other !== subscription);
    if (rest.length > 0) {
      this.#subscriptions.set(event, rest);
      return;
    }
    this.#subscriptions.delete(event);
    this.#detach.get(event)?.();
    this.#detach.delete(event);
  }

  #attach(event: HubEvent): () => void {
    const deliver = (...args: unknown[]) => this.#deliver(event, args);
    if (event === 'suspend') {
      return (this.#server as ConsoleServer & SuspendWatch).onSuspend?.(deliver) ?? (() => {});
    }
    const server = this.#server as unknown as NodeJS.EventEmitter;
    server.on(event, deliver);
    return () => server.off(event, deliver);
  }

  #deliver(event: HubEvent, args: unknown[]): void {
    // As with an EventEmitter, a socket subscribing meanwhile gets the next event, not this one.
    for (const subscription of this.#subscriptions.get(event) ?? []) {
      if (!subscription.active) continue;
      try {
        subscription.listener(...args);
      } catch (error) {
        // One broken socket must not keep the event from the others, nor throw into the server.
        this.#log.error({ err: error, server: this.#server.uuid, event }, 'console socket listener failed');
      }
    }
  }
}

/**
 * The daemon's console sockets follow their servers through here, so a server has one listener per event however
 * many sockets watch it (Node warns past 10 listeners on one emitter; 30 sockets may watch a server).
 */
export class ConsoleHub {
  readonly #log: FastifyBaseLogger;
  readonly #fanouts = new Map<ConsoleServer, ServerFanout>();

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /** Calls `listener` on each `event` of `server` until the returned function is called. */
  on<E extends HubEvent>(server: ConsoleServer, event: E, listener: HubListener<E>): () => void {
    let fanout = this.#fanouts.get(server);
    if (!fanout) {
      fanout = new ServerFanout(server, this.#log);
      this.#fanouts.set(server, fanout);
    }
    // The fan-out hands each event's own arguments to the listeners of that event only.
    const subscription: Subscription = {
      listener: listener as unknown as Subscription['listener'],
      active: true,
    };
    fanout.add(event, subscription);
    const owner = fanout;
    return () => {
      if (!subscription.active) return;
      owner.remove(event, subscription);
      if (owner.isEmpty && this.#fanouts.get(server) === owner) this.#fanouts.delete(server);
    };
  }

  /** Servers with at least one socket following them. */
  get serverCount(): number {
    return this.#fanouts.size;
  }
}
