import type { RawData } from 'ws';

/** Every frame both ways: `{"event": "<name>", "args": ["<string>", …]}`. */
export interface SocketMessage {
  event: string;
  args: string[];
}

/** A frame as sent: `args` left out when there are none (Wings' omitempty). */
export function encodeMessage(event: string, args: readonly string[] = []): string {
  return JSON.stringify(args.length === 0 ? { event } : { event, args });
}

/** Strings, or null where Go's JSON gives a string its zero value (Pterodactyl's front end sends `args: [null]`). */
const isArgumentArray = (value: unknown): value is (string | null)[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string' || item === null);

/** The message in an inbound frame, or undefined for anything else (ignored, as Wings does). */
export function parseMessage(data: RawData, isBinary: boolean): SocketMessage | undefined {
  if (isBinary) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { event, args } = value as { event?: unknown; args?: unknown };
  if (typeof event !== 'string') return undefined;
  if (args === undefined || args === null) return { event, args: [] };
  return isArgumentArray(args) ? { event, args: args.map((item) => item ?? '') } : undefined;
}
