import type { ConsoleWebsocketLimits } from './websocket-limits';

/** Which cap refuses an `auth`: the server's places, the user's share of them, or the client address's. */
export type Refusal = 'server' | 'user' | 'ip';

/** Who a socket's first valid token says it is. */
export interface SocketIdentity {
  /** The token's user (`user_uuid`, else `user_id`). */
  user: string;
  /** The token holds `*`: the server's owner or a root admin (subusers get their own list). */
  owner: boolean;
}

/** A place taken by one socket; released when its connection closes, whether or not the upgrade went through. */
export interface ConnectionSlot<Socket> {
  attach(socket: Socket): void;
  /**
   * Moves the socket from the unauthenticated allowance to the authenticated places (first valid `auth`); says
   * which cap refuses it when there is no place for it (or the slot was released meanwhile).
   */
  authenticate(identity: SocketIdentity): Refusal | undefined;
  release(): void;
}

type RegistryLimits = Pick<
  ConsoleWebsocketLimits,
  'maxSocketsPerServer' | 'maxSocketsPerUser' | 'maxSocketsPerIp' | 'maxPendingPerIp'
>;

interface Entry<Socket> {
  server: string;
  ip: string;
  socket: Socket | undefined;
  identity: SocketIdentity | undefined;
  released: boolean;
}

/** Adds to a counter map; drops the key at zero so the maps hold only addresses and servers in use. */
function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

const userKey = (server: string, user: string) => `${server} ${user}`;

/**
 * The open console sockets, by server and by client address, in two pools. Sockets that have not authenticated
 * yet live in a small allowance per client address; past it a new one is refused, and no socket ever makes room
 * by closing another: whoever opens sockets without a token, from however many addresses, closes nobody's socket
 * and cannot keep out a user who connects and sends `auth` within the auth time-out. Authenticated sockets hold
 * the server's places: per server, per user on a server (so no one user holds them all) with part of them kept for
 * the owner (subusers share the rest), and per address; a socket past a cap is refused at its `auth`. A slot is
 * taken before the upgrade, so a burst of simultaneous connections cannot slip past any of them.
 */
export class ConnectionRegistry<Socket = unknown> {
  readonly #limits: RegistryLimits;
  /** Every slot of a server, oldest first (a Set keeps insertion order). */
  readonly #byServer = new Map<string, Set<Entry<Socket>>>();
  readonly #pendingOfIp = new Map<string, number>();
  readonly #pendingOfServer = new Map<string, number>();
  readonly #authenticatedOfServer = new Map<string, number>();
  /** Authenticated sockets of a server whose token lacks `*` (subusers): they share what the owner's share leaves. */
  readonly #subusersOfServer = new Map<string, number>();
  readonly #authenticatedOfUser = new Map<string, number>();
  readonly #authenticatedOfIp = new Map<string, number>();

  constructor(limits: RegistryLimits) {
    this.#limits = limits;
  }

  /**
   * A slot for a new socket, counted as unauthenticated; undefined when its address already has its allowance of
   * unauthenticated sockets (the upgrade is refused).
   */
  reserve(serverUuid: string, ip: string): ConnectionSlot<Socket> | undefined {
    if ((this.#pendingOfIp.get(ip) ?? 0) >= this.#limits.maxPendingPerIp) return undefined;
    const entry: Entry<Socket> = {
      server: serverUuid,
      ip,
      socket: undefined,
      identity: undefined,
      released: false,
    };
    const slots = this.#byServer.get(serverUuid) ?? new Set();
    slots.add(entry);
    this.#byServer.set(serverUuid, slots);
    bump(this.#pendingOfIp, ip, 1);
    bump(this.#pendingOfServer, serverUuid, 1);
    return {
      attach: (socket) => {
        if (!entry.released) entry.socket = socket;
      },
      authenticate: (identity) => this.#authenticate(entry, identity),
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

  #authenticate(entry: Entry<Socket>, identity: SocketIdentity): Refusal | undefined {
    if (entry.released) return 'server';
    if (entry.identity) return undefined;
    const { maxSocketsPerServer, maxSocketsPerUser, maxSocketsPerIp } = this.#limits;
    const user = userKey(entry.server, identity.user);
    if ((this.#authenticatedOfUser.get(user) ?? 0) >= maxSocketsPerUser) return 'user';
    if ((this.#authenticatedOfServer.get(entry.server) ?? 0) >= maxSocketsPerServer) return 'server';
    // The owner's share (one user's cap) stays free of subusers, so the owner always gets in.
    const subuserPlaces = maxSocketsPerServer - maxSocketsPerUser;
    if (!identity.owner && (this.#subusersOfServer.get(entry.server) ?? 0) >= subuserPlaces) return 'server';
    if ((this.#authenticatedOfIp.get(entry.ip) ?? 0) >= maxSocketsPerIp) return 'ip';
    entry.identity = identity;
    this.#count(entry, -1, 1);
    return undefined;
  }

  #release(entry: Entry<Socket>): void {
    if (entry.released) return;
    entry.released = true;
    entry.socket = undefined;
    const slots = this.#byServer.get(entry.server);
    slots?.delete(entry);
    if (slots?.size === 0) this.#byServer.delete(entry.server);
    if (entry.identity) this.#count(entry, 0, -1);
    else this.#count(entry, -1, 0);
  }

  /** Moves the entry's counts: `pending` onto the unauthenticated counters, `authenticated` onto the others. */
  #count(entry: Entry<Socket>, pending: number, authenticated: number): void {
    bump(this.#pendingOfIp, entry.ip, pending);
    bump(this.#pendingOfServer, entry.server, pending);
    if (authenticated === 0 || !entry.identity) return;
    bump(this.#authenticatedOfServer, entry.server, authenticated);
    bump(this.#authenticatedOfUser, userKey(entry.server, entry.identity.user), authenticated);
    bump(this.#authenticatedOfIp, entry.ip, authenticated);
    if (!entry.identity.owner) bump(this.#subusersOfServer, entry.server, authenticated);
  }

  #attached(entries: Iterable<Entry<Socket>>): Socket[] {
    return [...entries].flatMap((entry) => (entry.socket === undefined ? [] : [entry.socket]));
  }
}
