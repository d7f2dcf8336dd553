import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import { NODE_TOKEN, type TestDaemon } from './daemon-harness';
import { demoConfiguration } from './panel-stand-in';

/** The demo configuration with the egg's file denylist and a disk limit (MiB, 0 = unlimited). */
export function fileServerConfiguration(
  uuid: string,
  options: { denylist?: string[]; diskMb?: number } = {},
): DaemonServerConfiguration {
  const configuration = demoConfiguration(uuid, { diskMb: options.diskMb ?? 0, skipScripts: true });
  configuration.settings.egg.file_denylist = options.denylist ?? [];
  return configuration;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The body parsed as JSON, if it is JSON. */
  json: unknown;
}

/** A request whose body and answer are bytes (contents, write, signed URLs); the node token unless `token`. */
export async function rawRequest(
  daemon: TestDaemon,
  method: string,
  route: string,
  init: { body?: RequestInit['body']; headers?: Record<string, string>; token?: string | null } = {},
): Promise<RawResponse> {
  const token = init.token === undefined ? NODE_TOKEN : init.token;
  const response = await fetch(`${daemon.url}${route}`, {
    method,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...init.headers },
    body: init.body,
    // A ReadableStream body (chunked, no Content-Length) needs this in Node's fetch.
    ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, json };
}
