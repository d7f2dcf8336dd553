import { escapeHtml } from '@aerie/panel/http/escape-html';
import type { MailText } from './mail-texts';
import type { MailMessage } from './mailer';

/**
 * The mail to someone an account was made for (invited as a subuser), in their language: their username and a link
 * to choose a password, the password reset link (Pterodactyl's AccountCreated notification).
 */
export function accountCreatedMail(
  text: MailText,
  input: { to: string; username: string; link: string; appName: string; minutes: number },
): MailMessage {
  const greeting = text('created.greeting');
  const intro = text('created.intro', { appName: input.appName });
  const username = text('created.username', { username: input.username });
  const email = text('created.email', { email: input.to });
  const action = text('created.action');
  const expiry = text('created.expiry', { count: input.minutes });
  return {
    to: input.to,
    subject: text('created.subject', { appName: input.appName }),
    text: `${greeting}\n\n${intro}\n\n${username}\n${email}\n\n${action}: ${input.link}\n\n${expiry}\n`,
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<p>${escapeHtml(username)}<br>${escapeHtml(email)}</p>`,
      `<p><a href="${escapeHtml(input.link)}">${escapeHtml(action)}</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
    ].join('\n'),
  };
}
