/** One websocket frame: an event name and string arguments (structured data is JSON inside `args[0]`). */
export interface SocketMessage {
  event: string;
  args?: string[];
}

/** The frame as text; `args` is left out when there are none (Wings' framing). */
export function encodeSocketMessage(event: string, args: readonly string[] = []): string {
  return JSON.stringify(args.length > 0 ? { event, args } : { event });
}

/**
 * Reads a frame, or null when it is not JSON with a string `event` and (if present and not null) an array of
 * strings `args`.
 * Both ends drop such frames rather than act on half a message.
 */
export function parseSocketMessage(text: string): SocketMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { event, args } = value as { event?: unknown; args?: unknown };
  if (typeof event !== 'string' || event === '') return null;
  // `null` is how Go's encoder writes an empty slice (Wings): the same as no args.
  if (args === undefined || args === null) return { event };
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return null;
  return { event, args };
}
