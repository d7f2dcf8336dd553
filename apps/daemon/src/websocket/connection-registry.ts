import type { ConsoleWebsocketLimits } from './websocket-limits';

/** A place taken by one socket; released when its connection closes, whether or not the upgrade went through. */
export interface ConnectionSlot<Socket> {
  attach(socket: Socket): void;
  release(): void;
}

export type Refusal = 'server' | 'ip';

/**
 * The open console sockets, by server and by client address. A slot is taken before the upgrade, so a burst of
 * simultaneous connections cannot slip past the caps.
 */
export class ConnectionRegistry<Socket = unknown> {
  readonly #limits: Pick<ConsoleWebsocketLimits, 'maxSocketsPerServer' | 'maxSocketsPerIp'>;
  readonly #byServer = new Map<string, Set<ConnectionSlot<Socket>>>();
  readonly #byIp = new Map<string, number>();
  readonly #sockets = new Map<ConnectionSlot<Socket>, Socket>();

  constructor(limits: Pick<ConsoleWebsocketLimits, 'maxSocketsPerServer' | 'maxSocketsPerIp'>) {
    this.#limits = limits;
  }

  /** A slot for a new socket, or which cap refuses it. */
  reserve(serverUuid: string, ip: string): ConnectionSlot<Socket> | Refusal {
    const slots = this.#byServer.get(serverUuid) ?? new Set();
    if (slots.size >= this.#limits.maxSocketsPerServer) return 'server';
    const fromIp = this.#byIp.get(ip) ?? 0;
    if (fromIp >= this.#limits.maxSocketsPerIp) return 'ip';
    let released = false;
    const slot: ConnectionSlot<Socket> = {
      attach: (socket) => {
        if (!released) this.#sockets.set(slot, socket);
      },
      release: () => {
        if (released) return;
        released = true;
        this.#sockets.delete(slot);
        slots.delete(slot);
        if (slots.size === 0) this.#byServer.delete(serverUuid);
        const left = (this.#byIp.get(ip) ?? 1) - 1;
        if (left === 0) this.#byIp.delete(ip);
        else this.#byIp.set(ip, left);
      },
    };
    slots.add(slot);
    this.#byServer.set(serverUuid, slots);
    this.#byIp.set(ip, fromIp + 1);
    return slot;
  }

  /** The sockets open on a server (upgraded and not yet closed). */
  socketsOf(serverUuid: string): Socket[] {
    const slots = this.#byServer.get(serverUuid) ?? new Set();
    return [...slots].flatMap((slot) => {
      const socket = this.#sockets.get(slot);
      return socket === undefined ? [] : [socket];
    });
  }
}
