import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, OutboundRefusedError } from './guarded-fetch';
import { NO_OUTBOUND_ALLOW, parseOutboundAllow } from './outbound-allow';
import { OutboundPolicy } from './outbound-policy';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/to-metadata') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      return;
    }
    if (request.url === '/big') {
      response.end('x'.repeat(4096));
      return;
    }
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ method: request.method, body, type: request.headers['content-type'] ?? null }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const closed = new OutboundPolicy(NO_OUTBOUND_ALLOW);
const loopbackOpen = new OutboundPolicy(parseOutboundAllow('127.0.0.1/32'));

describe('OutboundPolicy', () => {
  it('refuses loopback, private, shared, link-local and reserved addresses, and lets public ones through', () => {
    expect(closed.refusalOf('127.0.0.1')).toBe('loopback');
    expect(closed.refusalOf('::ffff:127.0.0.1')).toBe('loopback');
    expect(closed.refusalOf('::1')).toBe('loopback');
    expect(closed.refusalOf('10.1.2.3')).toBe('private');
    expect(closed.refusalOf('192.168.0.1')).toBe('private');
    expect(closed.refusalOf('100.64.0.1')).toBe('carrierGradeNat');
    expect(closed.refusalOf('169.254.169.254')).toBe('linkLocal');
    expect(closed.refusalOf('fd00::1')).toBe('uniqueLocal');
    expect(closed.refusalOf('0.0.0.0')).toBe('unspecified');
    expect(closed.refusalOf('93.184.215.14')).toBeUndefined();
    expect(closed.refusalOf('2606:4700::1111')).toBeUndefined();
    expect(loopbackOpen.refusalOf('127.0.0.1')).toBeUndefined();
    expect(loopbackOpen.refusalOf('127.0.0.2')).toBe('loopback');
  });

  it('allows plain http only to what AERIE_OUTBOUND_ALLOW opens', () => {
    expect(closed.urlRefusal(new URL('http://id.example.com'))).toBe('insecure');
    expect(closed.urlRefusal(new URL('https://id.example.com'))).toBeUndefined();
    expect(closed.urlRefusal(new URL('https://localhost'))).toBe('loopback');
    expect(loopbackOpen.urlRefusal(new URL('http://127.0.0.1:8080'))).toBeUndefined();
    const named = new OutboundPolicy(parseOutboundAllow('idp.internal'));
    expect(named.urlRefusal(new URL('http://idp.internal:8080'))).toBeUndefined();
    expect(named.allowsInsecure(new URL('http://idp.internal'))).toBe(true);
  });

  it('reads AERIE_OUTBOUND_ALLOW and names a bad entry', () => {
    expect(parseOutboundAllow(' 127.0.0.1/32, fd00::/8 ,idp.internal').hosts).toEqual(['idp.internal']);
    expect(() => parseOutboundAllow('10.0.0.0/99')).toThrow(/10\.0\.0\.0\/99/);
    expect(() => parseOutboundAllow('not a host!')).toThrow(/not a host!/);
  });
});

describe('createGuardedFetch', () => {
  it('refuses a loopback destination nobody opened, by address and by a name resolving to it', async () => {
    const rebinding = async () => [{ address: '127.0.0.1', family: 4 }];
    const fetch = createGuardedFetch(closed, { resolve: rebinding });
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundRefusedError);
    // A public-looking name that resolves to loopback: the connection's own lookup refuses it.
    await expect(fetch(`https://idp.example.com:${port}/`)).rejects.toBeInstanceOf(OutboundRefusedError);
    // The same name, opened by AERIE_OUTBOUND_ALLOW, connects.
    const named = createGuardedFetch(new OutboundPolicy(parseOutboundAllow('idp.example.com')), {
      resolve: rebinding,
    });
    expect((await named(`http://idp.example.com:${port}/echo`)).status).toBe(200);
  });

  it('talks to an opened destination like fetch', async () => {
    const fetch = createGuardedFetch(loopbackOpen);
    const response = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      body: new URLSearchParams({ a: '1' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      method: 'POST',
      body: 'a=1',
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
    });
  });

  it('checks every redirect like the first hop, and hands redirects back when asked to', async () => {
    const fetch = createGuardedFetch(loopbackOpen);
    await expect(fetch(`http://127.0.0.1:${port}/to-metadata`)).rejects.toBeInstanceOf(OutboundRefusedError);
    const manual = await fetch(`http://127.0.0.1:${port}/to-metadata`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });

  it('refuses an answer larger than its bound', async () => {
    const fetch = createGuardedFetch(loopbackOpen, { maxBytes: 1024 });
    await expect(fetch(`http://127.0.0.1:${port}/big`)).rejects.toThrow(/larger than 1024 bytes/);
  });
});
