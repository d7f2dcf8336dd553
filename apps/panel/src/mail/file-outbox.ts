import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';

/**
 * The embedded mail transport: nodemailer builds the full RFC 5322 message and we write it to
 * `DATA_DIR/mail/<time>-<random>.eml`, which any mail client opens. No SMTP server needed to try the panel.
 */
export function createFileOutbox(dir: string) {
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    dir,
    async send(message: SendMailOptions): Promise<string> {
      const info = await stream.sendMail(message);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      return file;
    },
  };
}
