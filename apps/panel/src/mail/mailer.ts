import { join } from 'node:path';
import type { Config } from '@aerie/panel/config/load-config';
import type { Log } from '@aerie/panel/logging/log';
import nodemailer from 'nodemailer';
import { createFileOutbox } from './file-outbox';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: an SMTP URL, or undefined for the file outbox; and the sender. */
export interface MailTransportSettings {
  url: string | undefined;
  from: string;
}

interface Transport {
  url: string | undefined;
  deliver: (message: MailMessage & { from: string }) => Promise<string>;
  close: () => void;
}

/**
 * Sends mail through SMTP when a mail URL is set, else into the file outbox in DATA_DIR/mail. The URL and sender
 * are read on every message (`settings`, the panel settings with MAIL_URL/MAIL_FROM as defaults, or the
 * environment alone), and the transport is rebuilt when the URL changes, so a change applies without a restart.
 * Messages are sent in the background (`queue`), so a request's answer time does not reveal whether a mail was
 * sent (e.g. whether an email address has an account); `drain` waits for what is in flight.
 */
/** How long an SMTP server may take to accept a connection and greet. */
const SMTP_TIMEOUT_MS = 10_000;

/** The SMTP URL with nodemailer's time-outs as query options, unless the URL sets its own. */
function withTimeouts(url: string): string {
  const parsed = new URL(url);
  const defaults = {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: 2 * SMTP_TIMEOUT_MS,
  };
  for (const [name, value] of Object.entries(defaults)) {
    if (!parsed.searchParams.has(name)) parsed.searchParams.set(name, String(value));
  }
  return parsed.toString();
}

export class Mailer {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #outboxDir: string;
  readonly #settings: () => Promise<MailTransportSettings>;
  #transport: Transport | null = null;

  constructor(
    config: Pick<Config, 'mail' | 'dataDir'>,
    private readonly log: Log,
    settings?: () => Promise<MailTransportSettings>,
  ) {
    this.#outboxDir = join(config.dataDir, 'mail');
    this.#settings = settings ?? (async () => config.mail);
  }

  /** True for the file outbox: links are also logged so a local admin can use them without opening files. */
  async isLocalOutbox(): Promise<boolean> {
    return !(await this.#settings()).url;
  }

  /** Sends one message now through the current transport; resolves to where it went (message id or file). */
  async send(message: MailMessage): Promise<string> {
    const { url, from } = await this.#settings();
    return this.#transportFor(url).deliver({ from, ...message });
  }

  queue(message: MailMessage): void {
    const sending = this.send(message)
      .then((where) => this.log.info({ to: message.to, subject: message.subject, where }, 'mail sent'))
      .catch((error: unknown) => this.log.error({ err: error, to: message.to }, 'mail could not be sent'))
      .finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  #transportFor(url: string | undefined): Transport {
    if (this.#transport && this.#transport.url === url) return this.#transport;
    this.#transport?.close();
    if (url) {
      // Bounded waits: an SMTP server that never answers fails a send (and the admin's test mail) in seconds,
      // not after nodemailer's two-minute default.
      const smtp = nodemailer.createTransport(withTimeouts(url));
      this.#transport = {
        url,
        deliver: async (message) => (await smtp.sendMail(message)).messageId,
        close: () => smtp.close(),
      };
    } else {
      const outbox = createFileOutbox(this.#outboxDir);
      this.#transport = { url, deliver: (message) => outbox.send(message), close: () => {} };
    }
    return this.#transport;
  }
}
