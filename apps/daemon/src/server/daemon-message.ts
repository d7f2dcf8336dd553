/** Wings colours what the daemon itself says: a yellow, bold `[<name> Daemon]:` prefix, then the text. */
export const DAEMON_MESSAGE_PREFIX = '\u001b[33m\u001b[1m[Aerie Daemon]:\u001b[39m ';

export const daemonMessage = (text: string) => `${DAEMON_MESSAGE_PREFIX}${text}`;
