import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailTexts } from './mail-texts';
import { Mailer } from './mailer';
import { passwordResetMail } from './password-reset-mail';

/** Just enough of an SMTP server to accept one message at a time and keep what it received. */
function smtpStandIn(): Promise<{
  server: Server;
  port: number;
  received: { from: string; to: string[]; data: string }[];
}> {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let envelope = { from: '', to: [] as string[], data: '' };
    socket.write('220 stand-in ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          envelope.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          received.push(envelope);
          envelope = { from: '', to: [], data: '' };
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 stand-in\r\n');
        else if (verb === 'MAIL') {
          envelope.from = line;
          socket.write('250 ok\r\n');
        } else if (verb === 'RCPT') {
          envelope.to.push(line);
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, received });
    }),
  );
}

const message = passwordResetMail(await new MailTexts('/nonexistent').for('en'), {
  to: 'mia@example.com',
  link: 'http://panel.test/auth/password/reset/abc?email=mia%40example.com',
  appName: 'Aerie',
  minutes: 60,
});

/** Fastify's own pino logger, silent or writing into `lines`. */
const logger = (lines?: string[]) =>
  Fastify({
    logger: lines
      ? { level: 'error', stream: { write: (line: string) => lines.push(line) } }
      : { level: 'silent' },
  }).log;

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-mail-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('Mailer', () => {
  it('writes each message as an .eml file in DATA_DIR/mail without MAIL_URL', async () => {
    const mailer = new Mailer(
      { dataDir, mail: { url: undefined, from: 'Aerie <no-reply@localhost>' } },
      logger(),
    );
    expect(await mailer.isLocalOutbox()).toBe(true);
    mailer.queue(message);
    mailer.queue({ ...message, to: 'noah@example.com' });
    await mailer.drain();
    const files = readdirSync(join(dataDir, 'mail')).filter((name) => name.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const mia = files
      .map((name) => readFileSync(join(dataDir, 'mail', name), 'utf8'))
      .find((eml) => eml.includes('To: mia@'));
    expect(mia).toMatch(/^Subject: Aerie: Reset Password$/m);
    // Quoted-printable: undo soft line breaks and the escaped '='.
    const text = mia?.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(text).toContain(
      'Reset Password: http://panel.test/auth/password/reset/abc?email=mia%40example.com',
    );
  });

  it('sends through SMTP when MAIL_URL is set', async () => {
    const smtp = await smtpStandIn();
    try {
      const mailer = new Mailer(
        { dataDir, mail: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Panel <panel@example.com>' } },
        logger(),
      );
      expect(await mailer.isLocalOutbox()).toBe(false);
      mailer.queue(message);
      await mailer.drain();
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail?.from).toBe('MAIL FROM:<panel@example.com>');
      expect(mail?.to).toEqual(['RCPT TO:<mia@example.com>']);
      expect(mail?.data).toMatch(/^Subject: Aerie: Reset Password$/m);
    } finally {
      smtp.server.close();
    }
  });

  it('logs a failed delivery instead of failing the request that queued it', async () => {
    const lines: string[] = [];
    const log = logger(lines);
    const mailer = new Mailer(
      { dataDir, mail: { url: 'smtp://127.0.0.1:9', from: 'x <x@example.com>' } },
      log,
    );
    mailer.queue(message);
    await mailer.drain();
    expect(lines.join('')).toContain('mail could not be sent');
  });
});
