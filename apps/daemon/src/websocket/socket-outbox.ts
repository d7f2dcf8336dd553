import type { WebSocket } from 'ws';
import { MAX_QUEUED_CONTROL_MESSAGES } from './websocket-limits';

/**
 * - `line`: console/install output, dropped oldest-first when the socket is slow;
 * - `stats`: only the newest one matters;
 * - `control`: everything else (status, auth replies, errors), never dropped.
 */
export type OutboxKind = 'line' | 'stats' | 'control';

interface Queued {
  frame: string;
  kind: OutboxKind;
}

/** How often a socket with queued frames looks whether its send buffer has room again. */
const FLUSH_INTERVAL_MS = 20;

/**
 * What one socket still has to send. Frames go straight to the socket while its send buffer is below the high
 * water mark; past it they wait here, a few lines at most, so a client that reads slowly (or not at all) loses
 * old lines instead of growing the daemon's memory or holding up the server and the other sockets.
 */
export class SocketOutbox {
  readonly #ws: WebSocket;
  readonly #maxQueuedLines: number;
  readonly #highWaterBytes: number;
  readonly #queue: Queued[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** Lines thrown away because the socket could not keep up. */
  droppedLines = 0;

  constructor(ws: WebSocket, options: { maxQueuedLines: number; highWaterBytes: number }) {
    this.#ws = ws;
    this.#maxQueuedLines = options.maxQueuedLines;
    this.#highWaterBytes = options.highWaterBytes;
  }

  /** Bytes written to the socket and not yet sent. */
  get bufferedBytes(): number {
    return this.#ws.bufferedAmount;
  }

  get queued(): number {
    return this.#queue.length;
  }

  push(frame: string, kind: OutboxKind): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    if (this.#queue.length === 0 && this.#hasRoom()) {
      this.#ws.send(frame);
      return;
    }
    this.#enqueue({ frame, kind });
    this.#scheduleFlush();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.length = 0;
  }

  #hasRoom(): boolean {
    return this.#ws.bufferedAmount < this.#highWaterBytes;
  }

  #enqueue(item: Queued): void {
    const count = (kind: OutboxKind) => this.#queue.filter((queued) => queued.kind === kind).length;
    if (item.kind === 'stats') this.#removeFirst('stats');
    if (item.kind === 'line' && count('line') >= this.#maxQueuedLines) {
      this.#removeFirst('line');
      this.droppedLines += 1;
    }
    if (item.kind === 'control' && count('control') >= MAX_QUEUED_CONTROL_MESSAGES) {
      // Not even the rare control messages get through: the client is gone in all but name.
      this.dispose();
      this.#ws.terminate();
      return;
    }
    this.#queue.push(item);
  }

  #removeFirst(kind: OutboxKind): void {
    const index = this.#queue.findIndex((queued) => queued.kind === kind);
    if (index !== -1) this.#queue.splice(index, 1);
  }

  #scheduleFlush(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, FLUSH_INTERVAL_MS);
  }

  #flush(): void {
    if (this.#ws.readyState !== this.#ws.OPEN) {
      this.dispose();
      return;
    }
    while (this.#queue.length > 0 && this.#hasRoom()) {
      const next = this.#queue.shift();
      if (next) this.#ws.send(next.frame);
    }
    if (this.#queue.length > 0) this.#scheduleFlush();
  }
}
