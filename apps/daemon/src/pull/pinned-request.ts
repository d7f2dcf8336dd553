import { lookup as systemLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import { type DestinationPolicy, refusalOf } from './pull-destinations';
import { PULL_LIMITS, type ResolveHost } from './pull-settings';
import { assertPullable, redactUrl } from './pull-url';

/** An address a pull was checked for and connects to, and nothing else. */
export interface CheckedDestination {
  address: string;
  family: 4 | 6;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemResolve: ResolveHost = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

/** A 400 the pull answers with (or announces on the console when it runs in the background). */
export const pullError = (message: string) => new HttpError(400, message);

/**
 * Resolves `url`'s host once and checks the address it will connect to (CVE-2024-34068: Wings checked one
 * resolution and connected after another). A name with several addresses connects to the first one allowed; a
 * name with none allowed is refused, naming the kind of address it had.
 */
export async function checkDestination(
  url: URL,
  policy: DestinationPolicy,
  resolve: ResolveHost = systemResolve,
): Promise<CheckedDestination> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await resolve(host).catch(() => {
        throw pullError(`The host ${host} could not be resolved.`);
      });
  let refusal = 'unknown';
  for (const { address, family } of addresses) {
    const why = refusalOf(address, policy);
    if (why === undefined) return { address, family: family === 6 ? 6 : 4 };
    refusal = why;
  }
  throw pullError(`The URL's host is ${describeRange(refusal)}: this node does not download from it.`);
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private network address',
    uniqueLocal: 'a private network address',
    carrierGradeNat: 'a shared (carrier-grade NAT) address',
    linkLocal: 'a link-local address',
    unspecified: 'an unspecified address',
    multicast: 'a multicast address',
    broadcast: 'a broadcast address',
    own: "this node's own address",
  };
  return names[range] ?? 'a reserved, non-public address';
}

export interface RemoteAnswer {
  response: IncomingMessage;
  /** The URL that answered 200, after redirects. */
  url: URL;
}

export interface FetchOptions {
  policy: DestinationPolicy;
  resolve?: ResolveHost;
  /** The first hop's destination, already checked when the pull was accepted. */
  first: CheckedDestination;
  signal: AbortSignal;
  idleTimeoutMs: number;
}

/**
 * GET `url` connected to exactly the checked address (the agent's lookup answers only that address, and the socket
 * is checked once connected), following at most 5 redirects, each target checked the same way, http and https
 * only. Resolves with a 200 answer whose body is unread; anything else is a 400 pullError.
 */
export async function fetchRemote(url: URL, options: FetchOptions): Promise<RemoteAnswer> {
  let current = url;
  let destination = options.first;
  for (let hop = 0; ; hop++) {
    const response = await getOnce(current, destination, options);
    const status = response.statusCode ?? 0;
    if (!REDIRECTS.has(status)) {
      if (status === 200) return { response, url: current };
      response.destroy();
      throw pullError(
        `The remote server answered ${status} ${response.statusMessage ?? ''}`.trimEnd().concat('.'),
      );
    }
    response.destroy();
    const location = response.headers.location;
    if (location === undefined) throw pullError(`The remote server answered ${status} without a Location.`);
    if (hop >= PULL_LIMITS.redirects) {
      throw pullError(`The URL redirected more than ${PULL_LIMITS.redirects} times.`);
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw pullError('The remote server redirected to an address that is not a URL.');
    }
    assertPullable(next);
    destination = await checkDestination(next, options.policy, options.resolve);
    current = next;
  }
}

function getOnce(url: URL, destination: CheckedDestination, options: FetchOptions): Promise<IncomingMessage> {
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [destination]);
    else callback(null, destination.address, destination.family);
  };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const credentials =
    url.username || url.password
      ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
      : undefined;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(options.signal.reason as Error);
      return;
    }
    const request = client.request({
      method: 'GET',
      // The name stays the host (Host header, TLS name check); the lookup gives only the checked address.
      host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      lookup: pinned,
      // A fresh agent: no pooled socket of another destination is ever reused, no proxy from the environment.
      agent: false,
      // Uncompressed, so Content-Length is the file's size.
      headers: { 'user-agent': 'Aerie daemon (remote file pull)', accept: '*/*' },
      ...(credentials === undefined ? {} : { auth: credentials }),
      ...(isIP(host) ? {} : { servername: host }),
    });
    let answer: IncomingMessage | undefined;
    // Either before the answer (the request fails) or while the body arrives (the body fails, and the write
    // reading it with it).
    const fail = (error: Error) => (answer ? answer.destroy(error) : request.destroy(error));
    request.setTimeout(options.idleTimeoutMs, () =>
      fail(
        pullError(
          `The download stopped: nothing arrived for ${Math.round(options.idleTimeoutMs / 1000)} seconds.`,
        ),
      ),
    );
    const onAbort = () => fail(options.signal.reason as Error);
    options.signal.addEventListener('abort', onAbort, { once: true });
    const forget = () => options.signal.removeEventListener('abort', onAbort);
    request.once('close', () => {
      if (answer === undefined) forget();
    });
    request.once('socket', (socket: Socket) => {
      socket.once('connect', () => {
        // Belt and braces: whatever connected must be the address that was checked.
        if (!sameAddress(socket.remoteAddress, destination.address)) {
          request.destroy(pullError('The connection went to an address that was not checked.'));
        }
      });
    });
    request.once('response', (response) => {
      answer = response;
      response.once('close', forget);
      resolve(response);
    });
    request.once('error', (error) => reject(connectionError(error, url)));
    request.end();
  });
}

function sameAddress(a: string | undefined, b: string): boolean {
  const strip = (value: string) => value.replace(/^::ffff:/i, '').toLowerCase();
  return a !== undefined && strip(a) === strip(b);
}

/** A refusal stays as it is; a network failure is told without the URL's credentials. */
function connectionError(error: Error, url: URL): Error {
  if (error instanceof HttpError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return pullError(`Could not download ${redactUrl(url)}: ${code ?? error.message}.`);
}
