import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { updateLanguage } from '@aerie/panel/features/users/user-writes';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { clearMail } from '@aerie/panel/test/mail-outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailTexts } from './mail-texts';

let t: TestApp;
let scratch: string;
beforeAll(async () => {
  t = await buildTestApp();
  scratch = mkdtempSync(join(tmpdir(), 'aerie-mail-texts-'));
});
afterAll(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Quoted-printable (and a MIME word's `_` for a space) back to text. */
const unquote = (text: string) =>
  decodeURIComponent(text.replace(/%/g, '%25').replace(/=([0-9A-F]{2})/gi, '%$1'));

/** A message's subject and text body as the reader sees them (MIME words and quoted-printable decoded). */
function readable(eml: string): { subject: string; body: string } {
  // Headers end at the first blank line; folded header lines continue with a space.
  const [head = '', ...rest] = eml.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = (/^Subject: (.*)$/m.exec(unfolded)?.[1] ?? '').replace(
    /=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi,
    (_whole, encoding: string, word: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(word, 'base64').toString('utf8')
        : unquote(word.replace(/_/g, ' ')),
  );
  return { subject, body: unquote(rest.join('\n\n').replace(/=\r?\n/g, '')) };
}

describe('mail in the reader’s language', () => {
  it("sends the password reset mail in the account's language", async () => {
    const german = await new MailTexts(t.ctx.config.webDist).for('de');
    const { user } = await createTestUser(t.ctx, { email: 'greta@example.com' });
    await updateLanguage(t.ctx.db, user.id, 'de', new Date());
    clearMail(t);
    expect(
      (await new TestBrowser(t.app, '10.40.0.1').post('/auth/password', { email: user.email })).statusCode,
    ).toBe(200);
    await t.ctx.mailer.drain();
    const outbox = join(t.ctx.config.dataDir, 'mail');
    const [file] = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    const { subject, body } = readable(readFileSync(join(outbox, file as string), 'utf8'));
    expect(subject).toBe(german('reset.subject', { appName: 'Aerie' }));
    expect(body).toContain(german('reset.intro'));
    expect(body).toContain(german('reset.expiry', { count: 60 }));
    expect(body).not.toContain('You are receiving this email');
  });

  it('falls back per key to English for a language that lacks one, and wholly for one the panel does not ship', async () => {
    mkdirSync(join(scratch, 'de'), { recursive: true });
    mkdirSync(join(scratch, 'en'), { recursive: true });
    writeFileSync(
      join(scratch, 'en', 'mail.json'),
      JSON.stringify({ reset: { action: 'Reset Password', outro: 'Nothing to do.' } }),
    );
    writeFileSync(
      join(scratch, 'de', 'mail.json'),
      JSON.stringify({ reset: { action: 'Passwort zurücksetzen' } }),
    );
    const texts = new MailTexts('/nonexistent', scratch);
    const german = await texts.for('de');
    expect(german('reset.action')).toBe('Passwort zurücksetzen');
    expect(german('reset.outro')).toBe('Nothing to do.');
    expect((await texts.for('xx'))('reset.action')).toBe('Reset Password');
  });

  it("picks the plural form by the language's rules", async () => {
    const english = await new MailTexts('/nonexistent').for('en');
    expect(english('reset.expiry', { count: 1 })).toBe('This password reset link will expire in 1 minute.');
    expect(english('reset.expiry', { count: 60 })).toBe(
      'This password reset link will expire in 60 minutes.',
    );
    const polish = await new MailTexts('/nonexistent').for('pl');
    expect(polish('reset.expiry', { count: 2 })).not.toBe(
      polish('reset.expiry', { count: 5 }).replace('5', '2'),
    );
  });
});
