import { connect } from 'node:net';

/** What slirp4netns's API answered: `return` on success, `error.desc` on failure. */
export interface SlirpReply {
  return?: unknown;
  error?: { desc?: string };
}

/** One request to a slirp4netns API socket (it answers one JSON object per connection, then closes). */
export function slirpRequest(socketPath: string, request: object): Promise<SlirpReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let text = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy(new Error('slirp4netns did not answer its API socket')));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.once('error', reject);
    socket.once('close', () => {
      try {
        resolve(JSON.parse(text) as SlirpReply);
      } catch {
        reject(new Error(`slirp4netns answered its API socket with "${text.trim()}"`));
      }
    });
    socket.once('connect', () => socket.write(JSON.stringify(request)));
  });
}
