import WebSocket from 'ws';

/** What one client saw of the game's `L <index> <ns> …` lines and the daemon's notices. */
export interface ClientRecord {
  /** Which line indexes arrived (a line may be missing: the throttle or a slow-socket drop). */
  seen: Uint8Array;
  received: number;
  /** The game's stamp on line 0, when it arrived: the clock the other lines' print times follow from. */
  firstSentNs: bigint | undefined;
  firstNs: bigint;
  lastNs: bigint;
  /** Game-to-client latency of each line, in microseconds. */
  latenciesUs: number[];
  throttleNotices: number;
  doneLines: string[];
}

/**
 * Sockets come from many loopback addresses, 10 from each, as from many browsers: the daemon holds each address to
 * 50 sockets (and fewer still while they authenticate).
 */
export const clientAddress = (index: number) =>
  `127.0.${1 + Math.floor(index / 2500)}.${2 + (Math.floor(index / 10) % 250)}`;

const LINE_MARK = '"args":["L ';
const THROTTLE_TEXT = 'outputting console data too quickly';

/**
 * A console socket opened with the panel's Origin and authenticated with `token` (resolves on `auth success`);
 * from `localAddress` (a 127.0.0.x) to come from another client address, as many browsers do. `listen` hears
 * every message from the start, so none sent right behind `auth success` is missed.
 */
export async function openConsoleSocket(
  url: string,
  origin: string,
  token: string,
  { localAddress, listen }: { localAddress?: string; listen?: (text: string) => void } = {},
): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers: { origin }, localAddress });
  if (listen) ws.on('message', (data) => listen(data.toString()));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
  });
  const authed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer to auth')), 10_000);
    const onMessage = (data: WebSocket.RawData) => {
      const text = data.toString();
      if (text.includes('"auth success"')) {
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve();
      }
      if (text.includes('"jwt error"') || text.includes('"token expired"')) {
        clearTimeout(timer);
        reject(new Error(`auth refused: ${text}`));
      }
    };
    ws.on('message', onMessage);
    ws.once('close', () => reject(new Error('closed before auth')));
  });
  ws.send(JSON.stringify({ event: 'auth', args: [token] }));
  try {
    await authed;
  } catch (error) {
    ws.terminate();
    throw error;
  }
  return ws;
}

/** One authenticated console socket. Lines are parsed by hand: 2 million JSON.parse calls would load the client. */
export class BenchClient {
  record: ClientRecord = BenchClient.#fresh(0);
  /** When set (monotonic ns), the first line printed after it is timed in `liveAgainNs`: the socket streams again. */
  liveSince: bigint | undefined;
  liveAgainNs: bigint | undefined;
  #waiters: Array<(line: string) => boolean> = [];

  private constructor() {}
  ws!: WebSocket;

  /**
   * Opens the socket with the panel's Origin and authenticates with `token`; from `localAddress` (a 127.0.0.x) to
   * come from another client address, as many browsers do.
   */
  static async connect(
    url: string,
    origin: string,
    token: string,
    localAddress?: string,
  ): Promise<BenchClient> {
    const client = new BenchClient();
    client.ws = await openConsoleSocket(url, origin, token, {
      localAddress,
      listen: (text) => client.#onMessage(text),
    });
    return client;
  }

  static #fresh(lines: number): ClientRecord {
    return {
      seen: new Uint8Array(lines),
      received: 0,
      firstSentNs: undefined,
      firstNs: 0n,
      lastNs: 0n,
      latenciesUs: [],
      throttleNotices: 0,
      doneLines: [],
    };
  }

  /** Starts a new recording for a run of `lines` lines. */
  reset(lines: number): void {
    this.record = BenchClient.#fresh(lines);
  }

  send(event: string, args: string[]): void {
    this.ws.send(JSON.stringify({ event, args }));
  }

  /** Resolves with the first console line (after now) starting with `prefix`; rejects after `timeoutMs`. */
  waitForLine(prefix: string, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== check);
        reject(
          new Error(`no "${prefix}" line within ${timeoutMs} ms (${this.record.received} lines so far)`),
        );
      }, timeoutMs);
      const check = (line: string) => {
        if (!line.startsWith(prefix)) return false;
        clearTimeout(timer);
        resolve(line);
        return true;
      };
      this.#waiters.push(check);
    });
  }

  close(): void {
    this.ws.terminate();
  }

  #onMessage(text: string): void {
    const now = process.hrtime.bigint();
    const mark = text.indexOf(LINE_MARK);
    if (mark !== -1) {
      const [index, sentNs] = text
        .slice(mark + LINE_MARK.length - 2)
        .split(' ', 3)
        .slice(1);
      this.#onLine(Number(index), BigInt(sentNs ?? '0'), now);
      return;
    }
    if (text.includes(THROTTLE_TEXT)) this.record.throttleNotices += 1;
    if (!text.startsWith('{"event":"console output"')) return;
    const line = (JSON.parse(text) as { args: string[] }).args[0] ?? '';
    this.record.doneLines.push(line);
    this.#waiters = this.#waiters.filter((waiter) => !waiter(line));
  }

  #onLine(index: number, sentNs: bigint, now: bigint): void {
    if (this.liveSince !== undefined && this.liveAgainNs === undefined && sentNs >= this.liveSince)
      this.liveAgainNs = now;
    const record = this.record;
    if (record.received === 0) record.firstNs = now;
    record.lastNs = now;
    record.received += 1;
    if (index < record.seen.length) record.seen[index] = 1;
    if (index === 0) record.firstSentNs = sentNs;
    record.latenciesUs.push(Number(now - sentNs) / 1000);
  }
}
