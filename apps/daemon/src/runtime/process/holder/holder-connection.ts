import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { forwardLines } from '@aerie/daemon/runtime/process/line-splitter';
import type { NumberedLine } from './console-ring';
import {
  type DaemonMessage,
  decodeMessage,
  encodeMessage,
  HOLDER_MESSAGE_MAX_BYTES,
  HOLDER_PROTOCOL_VERSION,
  type HolderExit,
  type HolderMessage,
} from './holder-protocol';

export type HolderHello = Extract<HolderMessage, { t: 'hello' }>;

export interface HolderConnectionEvents {
  line: [line: NumberedLine];
  /** The game is gone (after its last line). */
  exit: [exit: HolderExit];
  /** The socket closed before an exit: the holder itself died. */
  lost: [];
}

/** How long a holder may take to say hello before it counts as hung. */
const HELLO_TIMEOUT_MS = 5000;

/** The daemon's side of a holder's socket. */
export class HolderConnection extends EventEmitter<HolderConnectionEvents> {
  readonly hello: HolderHello;
  readonly #socket: Socket;
  #exited = false;

  private constructor(socket: Socket, hello: HolderHello) {
    super();
    this.#socket = socket;
    this.hello = hello;
  }

  /**
   * Connects and waits for the holder's hello; nothing else flows until attach().
   * @throws Error when nobody answers, the holder hangs, or speaks a protocol this daemon does not know
   */
  static open(socketPath: string): Promise<HolderConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      let connection: HolderConnection | undefined;
      const fail = (error: Error) => {
        socket.destroy();
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error('The holder did not answer.')), HELLO_TIMEOUT_MS);
      socket.once('error', (error) => {
        clearTimeout(timer);
        if (!connection) fail(error);
      });
      socket.setNoDelay(true);
      const closed = forwardLines(
        socket,
        (line) => {
          const message = decodeMessage<HolderMessage>(line);
          if (!message) return;
          if (connection) {
            connection.#onMessage(message);
            return;
          }
          clearTimeout(timer);
          if (message.t !== 'hello' || message.v !== HOLDER_PROTOCOL_VERSION) {
            fail(new Error(`The holder speaks a protocol this daemon does not know (${line.slice(0, 80)}).`));
            return;
          }
          connection = new HolderConnection(socket, message);
          resolve(connection);
        },
        HOLDER_MESSAGE_MAX_BYTES,
      );
      void closed.then(() => {
        clearTimeout(timer);
        if (!connection) fail(new Error('The holder closed the connection.'));
        else if (!connection.#exited) connection.emit('lost');
      });
    });
  }

  /** Starts the flow: every kept line numbered above `after`, then live ones, then the exit. */
  attach(after: number): void {
    this.#send({ t: 'attach', after });
  }

  write(line: string): void {
    this.#send({ t: 'write', s: line });
  }

  signal(signal: NodeJS.Signals): void {
    this.#send({ t: 'signal', signal });
  }

  kill(): void {
    this.#send({ t: 'kill' });
  }

  /** The exit is recorded: the holder may go. */
  release(): void {
    this.#send({ t: 'release' });
    this.#socket.end();
  }

  /** Hangs up without a word: the holder and its game keep running for the next daemon. */
  close(): void {
    this.#socket.destroy();
  }

  #send(message: DaemonMessage): void {
    if (!this.#socket.destroyed && this.#socket.writable) this.#socket.write(encodeMessage(message));
  }

  #onMessage(message: HolderMessage): void {
    if (message.t === 'line') this.emit('line', { n: message.n, s: message.s });
    else if (message.t === 'exit') {
      this.#exited = true;
      this.emit('exit', { code: message.code, signal: message.signal });
    }
  }
}
