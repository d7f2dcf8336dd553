import WebSocket from 'ws';

export interface ReceivedMessage {
  event: string;
  args?: string[];
}

export const PANEL_ORIGIN = 'http://panel.test:8080';

/** Why an upgrade was refused: the HTTP status and body the daemon answered with. */
export class RefusedUpgrade extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused with ${status}: ${body}`);
  }
}

/** A real websocket client that records every message and how the socket closed. */
export class TestSocket {
  readonly ws: WebSocket;
  readonly messages: ReceivedMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters = new Set<() => void>();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as ReceivedMessage);
      for (const wake of this.#waiters) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.#waiters) wake();
      });
    });
  }

  /**
   * Opens a socket (Origin = the panel's unless given; from `localAddress`, e.g. 127.0.0.2, to come from another
   * client address over loopback); rejects with RefusedUpgrade when the daemon says no.
   */
  static open(
    url: string,
    options: { origin?: string | null; localAddress?: string } = {},
  ): Promise<TestSocket> {
    const headers: Record<string, string> = {};
    const origin = options.origin === undefined ? PANEL_ORIGIN : options.origin;
    if (origin !== null) headers.origin = origin;
    const ws = new WebSocket(url, { headers, localAddress: options.localAddress });
    const socket = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => reject(new RefusedUpgrade(response.statusCode ?? 0, body)));
      });
      ws.once('error', reject);
    });
  }

  send(event: string, args?: (string | null)[]): void {
    this.ws.send(JSON.stringify(args === undefined ? { event } : { event, args }));
  }

  /** Opens and authenticates; resolves once `auth success` arrives. */
  async auth(token: string): Promise<void> {
    const from = this.messages.length;
    this.send('auth', [token]);
    const reply = await this.waitFor((m) => m.event === 'auth success' || m.event === 'jwt error', { from });
    if (reply.event !== 'auth success') throw new Error(`auth refused: ${reply.args?.[0]}`);
  }

  /** The first message from index `from` on (default: all so far) that matches; rejects after `timeoutMs`. */
  waitFor(
    accept: (message: ReceivedMessage) => boolean,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<ReceivedMessage> {
    const from = options.from ?? 0;
    const timeoutMs = options.timeoutMs ?? 5000;
    return new Promise((resolve, reject) => {
      // Each waiter remembers how far it has looked, so a flood of messages costs one look each.
      let scanned = from;
      const check = () => {
        for (; scanned < this.messages.length; scanned += 1) {
          const message = this.messages[scanned];
          if (message && accept(message)) {
            done();
            resolve(message);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        done();
        const last = JSON.stringify(this.messages.slice(-5)).slice(0, 500);
        reject(
          new Error(
            `no matching message within ${timeoutMs} ms (${this.messages.length} received; last: ${last})`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** The next message with this event name (after what was already received). */
  next(event: string, accept: (args: string[]) => boolean = () => true, timeoutMs?: number) {
    return this.waitFor((m) => m.event === event && accept(m.args ?? []), {
      from: this.messages.length,
      timeoutMs,
    });
  }

  events(from = 0): string[] {
    return this.messages.slice(from).map((m) => m.event);
  }

  close(): void {
    this.ws.close();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
