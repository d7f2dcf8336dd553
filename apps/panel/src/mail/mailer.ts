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

/**
 * Sends mail through SMTP when MAIL_URL is set, else into the file outbox in DATA_DIR/mail.
 * Messages are sent in the background (`queue`), so a request's answer time does not reveal whether a mail was
 * sent (e.g. whether an email address has an account); `drain` waits for what is in flight.
 */
export class Mailer {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #deliver: (message: MailMessage) => Promise<string>;
  /** True for the file outbox: links are also logged so a local admin can use them without opening files. */
  readonly isLocalOutbox: boolean;

  constructor(
    config: Pick<Config, 'mail' | 'dataDir'>,
    private readonly log: Log,
  ) {
    const from = config.mail.from;
    if (config.mail.url) {
      const smtp = nodemailer.createTransport(config.mail.url);
      this.#deliver = async (message) => (await smtp.sendMail({ from, ...message })).messageId;
      this.isLocalOutbox = false;
    } else {
      const outbox = createFileOutbox(join(config.dataDir, 'mail'));
      this.#deliver = (message) => outbox.send({ from, ...message });
      this.isLocalOutbox = true;
    }
  }

  queue(message: MailMessage): void {
    const sending = this.#deliver(message)
      .then((where) => this.log.info({ to: message.to, subject: message.subject, where }, 'mail sent'))
      .catch((error: unknown) => this.log.error({ err: error, to: message.to }, 'mail could not be sent'))
      .finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }
}
