import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './build-test-app';

/** The test app's file outbox (no MAIL_URL): one `.eml` per message in `DATA_DIR/mail`. */
const outboxOf = (t: TestApp) => join(t.dataDir, 'mail');

export const clearMail = (t: TestApp) => rmSync(outboxOf(t), { recursive: true, force: true });

/** The messages sent so far (after the mailer's queue drained), decoded from quoted-printable enough to read links. */
export async function sentMail(t: TestApp): Promise<string[]> {
  await t.ctx.mailer.drain();
  const outbox = outboxOf(t);
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .map((name) =>
      readFileSync(join(outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    );
}

/** The password reset (or account set-up) link of a mail: its token and email. */
export function resetLinkIn(mail: string): { token: string; email: string } {
  const link = /\/auth\/password\/reset\/([0-9a-f]{64})\?email=([^\s"<>]+)/.exec(mail);
  if (!link) throw new Error(`no reset link in:\n${mail}`);
  return { token: link[1] as string, email: decodeURIComponent(link[2] as string) };
}
