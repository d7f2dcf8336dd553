import type { WebSocketLike } from '@/features/console/socket/console-socket';

/**
 * A stand-in for the browser's WebSocket (jsdom has no server to talk to): it records what the page sends and
 * lets a test play the daemon. `FakeWebSocket.instances` holds every socket created, newest last.
 */
export class FakeWebSocket implements WebSocketLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readyState = FakeWebSocket.CONNECTING;
  /** Every frame sent, parsed. */
  readonly sent: { event: string; args?: string[] }[] = [];
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  static latest(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('No websocket was opened.');
    return socket;
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('InvalidStateError: the socket is not open.');
    this.sent.push(JSON.parse(data) as { event: string; args?: string[] });
  }

  close(code = 1005): void {
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** Events sent so far, by name (with their args), for terse assertions. */
  sentEvents(): string[] {
    return this.sent.map(({ event, args }) => (args ? `${event} ${args.join(' ')}` : event));
  }

  // What the daemon and the network do:

  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  receive(event: string, ...args: string[]): void {
    const data = JSON.stringify(args.length > 0 ? { event, args } : { event });
    this.onmessage?.(new MessageEvent('message', { data }));
  }

  fail(): void {
    this.onerror?.(new Event('error'));
  }

  serverClose(code: number): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }
}
