import type { IncomingMessage } from 'node:http';

/** What a refused body may still send before its connection is cut: enough for the answer to be read. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
const DRAIN_LIMIT_MS = 10_000;

/**
 * After a request is refused mid-body (an upload over its limit, a write that met a full disk): whoever was reading
 * the body stopped, so the rest would stall the socket. The client that already sent it all then takes the
 * connection as free and its next request waits behind the unread bytes, unanswered. The rest is read and dropped,
 * up to a bound in bytes and time, so the connection serves the next request at once; past the bound it is cut.
 * The request must not be destroyed (read it with `iterator({ destroyOnReturn: false })`, or unpipe it).
 */
export function drainRefusedBody(request: IncomingMessage): void {
  if (request.complete) return;
  let drained = 0;
  const cut = () => request.socket?.destroy();
  const timer = setTimeout(cut, DRAIN_LIMIT_MS);
  timer.unref();
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) cut();
  });
  request.once('end', () => clearTimeout(timer));
  request.once('close', () => clearTimeout(timer));
  request.resume();
}
