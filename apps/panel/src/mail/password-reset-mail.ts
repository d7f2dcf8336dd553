import { escapeHtml } from '@aerie/panel/http/escape-html';
import type { MailText } from './mail-texts';
import type { MailMessage } from './mailer';

/**
 * The password reset mail in its reader's language, with the link the SPA's reset page reads (token in the path,
 * email in the query).
 */
export function passwordResetMail(
  text: MailText,
  input: { to: string; link: string; appName: string; minutes: number },
): MailMessage {
  const intro = text('reset.intro');
  const outro = text('reset.outro');
  const action = text('reset.action');
  const expiry = text('reset.expiry', { count: input.minutes });
  return {
    to: input.to,
    subject: text('reset.subject', { appName: input.appName }),
    text: `${intro}\n\n${action}: ${input.link}\n\n${expiry}\n\n${outro}\n`,
    html: [
      `<p>${escapeHtml(intro)}</p>`,
      `<p><a href="${escapeHtml(input.link)}">${escapeHtml(action)}</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      `<p>${escapeHtml(outro)}</p>`,
    ].join('\n'),
  };
}
