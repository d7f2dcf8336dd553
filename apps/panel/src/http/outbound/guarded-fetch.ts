import { lookup as dnsLookup } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { bareHost, type OutboundPolicy } from './outbound-policy';

/** A request the outbound policy refused: the destination is not public and not opened by AERIE_OUTBOUND_ALLOW. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'AERIE_OUTBOUND_REFUSED';
}

/** What a guarded request may send and be told, a subset of fetch's `RequestInit`. */
export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | null;
  /** `manual` (openid-client's choice) hands a redirect back; `follow` follows it, checked as the first hop. */
  redirect?: 'manual' | 'follow' | 'error';
  signal?: AbortSignal | null;
}

export interface GuardedFetchOptions {
  /** The whole exchange, redirects included. */
  timeoutMs?: number;
  /** Bodies larger than this are refused (identity providers answer in a few KiB). */
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** How names are resolved: the system's resolver (dns.lookup, all addresses) unless a test gives another. */
  resolve?: ResolveHost;
}

/** A host name's addresses, as `dns.lookup(name, {all: true})` gives them. */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: ResolveHost = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

export type GuardedFetch = (url: string | URL, init?: GuardedRequestInit) => Promise<Response>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);

/**
 * A fetch for requests to URLs an admin typed (an issuer, a webhook): every connection, the first and each
 * redirect's, goes only to an address the policy allows. The check is made where the connection is made: the
 * socket's `lookup` resolves the name and hands `net.connect` only allowed addresses (so no second resolution can
 * swap in another), IP literals are checked before connecting, and the connected peer is checked again once the
 * socket is up. Node's http/https with a fresh agent per request (no pooled socket of another destination, no
 * proxy from the environment); the body is read whole, bounded.
 */
export function createGuardedFetch(policy: OutboundPolicy, options: GuardedFetchOptions = {}): GuardedFetch {
  const {
    timeoutMs = 10_000,
    maxBytes = 1024 * 1024,
    maxRedirects = 5,
    userAgent = 'Aerie panel',
    resolve = systemResolve,
  } = options;
  return async (input, init = {}) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let url = new URL(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = bodyBytes(init.body);
    const headers = new Headers(init.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', userAgent);
    if (init.body instanceof URLSearchParams && !headers.has('content-type'))
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    for (let hop = 0; ; hop++) {
      const response = await requestOnce(policy, url, { method, headers, body, signal, maxBytes, resolve });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null || init.redirect === 'manual') return response;
      if (init.redirect === 'error' || hop >= maxRedirects) {
        throw new OutboundRefusedError(
          `Too many redirects, or a redirect where none was expected (${url.host}).`,
        );
      }
      url = new URL(location, url);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
    }
  };
}

function bodyBytes(body: GuardedRequestInit['body']): Buffer | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** The checked lookup: the name's addresses the policy allows, in the resolver's order, or a refusal. */
function guardedLookup(policy: OutboundPolicy, hostname: string, resolve: ResolveHost): LookupFunction {
  return (_name, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const allowed = policy.hostAllowed(hostname)
          ? addresses
          : addresses.filter(({ address }) => policy.refusalOf(address) === undefined);
        const first = allowed[0];
        if (!first) {
          const why = addresses[0] ? policy.refusalOf(addresses[0].address) : 'unresolved';
          callback(new OutboundRefusedError(`${hostname} resolves to a ${why} address.`), '', 0);
        } else if (lookupOptions.all) callback(null, allowed);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function requestOnce(
  policy: OutboundPolicy,
  url: URL,
  request: {
    method: string;
    headers: Headers;
    body: Buffer | undefined;
    signal: AbortSignal;
    maxBytes: number;
    resolve: ResolveHost;
  },
): Promise<Response> {
  const refusal = policy.urlRefusal(url);
  if (refusal) return Promise.reject(new OutboundRefusedError(`${url.host} is refused (${refusal}).`));
  const host = bareHost(url.hostname);
  const client = url.protocol === 'https:' ? https : http;
  const headers = Object.fromEntries(request.headers.entries());
  if (request.body) headers['content-length'] = String(request.body.length);
  return new Promise<Response>((resolve, reject) => {
    if (request.signal.aborted) return reject(request.signal.reason);
    const outgoing = client.request({
      method: request.method,
      host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      ...(isIP(host) ? {} : { lookup: guardedLookup(policy, host, request.resolve), servername: host }),
    });
    const fail = (error: unknown) =>
      outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    const onAbort = () => fail(request.signal.reason);
    request.signal.addEventListener('abort', onAbort, { once: true });
    outgoing.once('close', () => request.signal.removeEventListener('abort', onAbort));
    outgoing.once('socket', (socket: Socket) => {
      socket.once('connect', () => {
        // Belt and braces: whatever the socket reached must itself be allowed.
        const peer = socket.remoteAddress ?? '';
        if (!policy.hostAllowed(host) && policy.refusalOf(peer) !== undefined)
          fail(new OutboundRefusedError(`${url.host} connected to a refused address.`));
      });
    });
    outgoing.once('error', reject);
    outgoing.once('response', (incoming: IncomingMessage) => {
      readBounded(incoming, request.maxBytes).then((bytes) => {
        const status = incoming.statusCode ?? 502;
        const answerHeaders = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2)
          answerHeaders.append(incoming.rawHeaders[i] as string, incoming.rawHeaders[i + 1] as string);
        const response = new Response(NULL_BODY.has(status) ? null : new Uint8Array(bytes), {
          status: status < 200 || status > 599 ? 502 : status,
          statusText: incoming.statusMessage ?? '',
          headers: answerHeaders,
        });
        Object.defineProperty(response, 'url', { value: url.href });
        resolve(response);
      }, reject);
    });
    outgoing.end(request.body);
  });
}

function readBounded(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        incoming.destroy(new OutboundRefusedError(`The answer is larger than ${maxBytes} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
    incoming.once('aborted', () => reject(new Error('The answer was cut off.')));
  });
}
