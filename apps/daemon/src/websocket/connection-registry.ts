import type { ConsoleWebsocketLimits } from './websocket-limits';

export type Refusal = 'server' | 'ip';

/** A place taken by one socket; released when its connection closes, whether or not the upgrade went through. */
export interface ConnectionSlot<Socket> {
  attach(socket: Socket): void;
  /**
   * Moves the socket from the unauthenticated allowance to the authenticated places (first valid `auth`); says
   * which cap refuses it when its server or its address has no place left (or the slot was evicted meanwhile).
   */
  authenticate(): Refusal | undefined;
  release(): void;
}

type RegistryLimits = Pick<
  ConsoleWebsocketLimits,
  'maxSocketsPerServer' | 'maxSocketsPerIp' | 'maxPendingPerServer' | 'maxPendingPerIp'
>;

interface Entry<Socket> {
  server: string;
  ip: string;
  socket: Socket | undefined;
  authenticated: boolean;
  released: boolean;
  evict: () => void;
}

/** Adds to a counter map; drops the key at zero so the maps hold only addresses and servers in use. */
function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

/**
 * The open console sockets, by server and by client address, in two pools: sockets that have authenticated
 * (capped per server and per address; a socket past a cap is refused at its `auth`) and sockets that have not
 * yet (a small allowance per server and per address, where the newest evicts the oldest). A slot is taken before
 * the upgrade, so a burst of simultaneous connections cannot slip past either.
 */
export class ConnectionRegistry<Socket = unknown> {
  readonly #limits: RegistryLimits;
  /** Every slot of a server, oldest first (a Set keeps insertion order). */
  readonly #byServer = new Map<string, Set<Entry<Socket>>>();
  /** Unauthenticated slots of an address, oldest first. */
  readonly #pendingByIp = new Map<string, Set<Entry<Socket>>>();
  readonly #pendingOfServer = new Map<string, number>();
  readonly #authenticatedOfServer = new Map<string, number>();
  readonly #authenticatedOfIp = new Map<string, number>();

  constructor(limits: RegistryLimits) {
    this.#limits = limits;
  }

  /**
   * A slot for a new socket, counted as unauthenticated. When its server or its address already has its allowance
   * of unauthenticated sockets, the oldest of those is evicted (`evict` is called) to make room: never refused.
   */
  reserve(serverUuid: string, ip: string, evict: () => void): ConnectionSlot<Socket> {
    if ((this.#pendingOfServer.get(serverUuid) ?? 0) >= this.#limits.maxPendingPerServer) {
      this.#evictOldest(this.#byServer.get(serverUuid));
    }
    if ((this.#pendingByIp.get(ip)?.size ?? 0) >= this.#limits.maxPendingPerIp) {
      this.#evictOldest(this.#pendingByIp.get(ip));
    }
    const entry: Entry<Socket> = {
      server: serverUuid,
      ip,
      socket: undefined,
      authenticated: false,
      released: false,
      evict,
    };
    this.#add(this.#byServer, serverUuid, entry);
    this.#add(this.#pendingByIp, ip, entry);
    bump(this.#pendingOfServer, serverUuid, 1);
    return {
      attach: (socket) => {
        if (!entry.released) entry.socket = socket;
      },
      authenticate: () => this.#authenticate(entry),
      release: () => this.#release(entry),
    };
  }

  /** The sockets open on a server (upgraded and not yet closed), oldest first. */
  socketsOf(serverUuid: string): Socket[] {
    return this.#attached(this.#byServer.get(serverUuid) ?? []);
  }

  /** Every open socket on every server. */
  everySocket(): Socket[] {
    return [...this.#byServer.values()].flatMap((entries) => this.#attached(entries));
  }

  /** How many sockets of a server are in each pool. */
  countsOf(serverUuid: string): { authenticated: number; pending: number } {
    return {
      authenticated: this.#authenticatedOfServer.get(serverUuid) ?? 0,
      pending: this.#pendingOfServer.get(serverUuid) ?? 0,
    };
  }

  #authenticate(entry: Entry<Socket>): Refusal | undefined {
    if (entry.released) return 'server';
    if (entry.authenticated) return undefined;
    if ((this.#authenticatedOfServer.get(entry.server) ?? 0) >= this.#limits.maxSocketsPerServer) {
      return 'server';
    }
    if ((this.#authenticatedOfIp.get(entry.ip) ?? 0) >= this.#limits.maxSocketsPerIp) return 'ip';
    entry.authenticated = true;
    this.#remove(this.#pendingByIp, entry.ip, entry);
    bump(this.#pendingOfServer, entry.server, -1);
    bump(this.#authenticatedOfServer, entry.server, 1);
    bump(this.#authenticatedOfIp, entry.ip, 1);
    return undefined;
  }

  #release(entry: Entry<Socket>): void {
    if (entry.released) return;
    entry.released = true;
    entry.socket = undefined;
    this.#remove(this.#byServer, entry.server, entry);
    if (entry.authenticated) {
      bump(this.#authenticatedOfServer, entry.server, -1);
      bump(this.#authenticatedOfIp, entry.ip, -1);
    } else {
      this.#remove(this.#pendingByIp, entry.ip, entry);
      bump(this.#pendingOfServer, entry.server, -1);
    }
  }

  /** Frees the oldest unauthenticated slot among `entries` at once, then tells its connection to go. */
  #evictOldest(entries: Iterable<Entry<Socket>> | undefined): void {
    for (const entry of entries ?? []) {
      if (entry.authenticated) continue;
      this.#release(entry);
      entry.evict();
      return;
    }
  }

  #attached(entries: Iterable<Entry<Socket>>): Socket[] {
    return [...entries].flatMap((entry) => (entry.socket === undefined ? [] : [entry.socket]));
  }

  #add(map: Map<string, Set<Entry<Socket>>>, key: string, entry: Entry<Socket>): void {
    const set = map.get(key) ?? new Set();
    set.add(entry);
    map.set(key, set);
  }

  #remove(map: Map<string, Set<Entry<Socket>>>, key: string, entry: Entry<Socket>): void {
    const set = map.get(key);
    if (!set) return;
    set.delete(entry);
    if (set.size === 0) map.delete(key);
  }
}
