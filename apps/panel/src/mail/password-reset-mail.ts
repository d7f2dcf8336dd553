import type { MailMessage } from './mailer';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The password reset mail, with the link the SPA's reset page reads (token in the path, email in the query). */
export function passwordResetMail(input: {
  to: string;
  link: string;
  appName: string;
  minutes: number;
}): MailMessage {
  const intro = 'You are receiving this email because we received a password reset request for your account.';
  const outro = 'If you did not request a password reset, no further action is required.';
  const expiry = `This password reset link will expire in ${input.minutes} minutes.`;
  return {
    to: input.to,
    subject: `${input.appName}: Reset Password`,
    text: `${intro}\n\nReset Password: ${input.link}\n\n${expiry}\n\n${outro}\n`,
    html: [
      `<p>${intro}</p>`,
      `<p><a href="${escapeHtml(input.link)}">Reset Password</a></p>`,
      `<p>${expiry}</p>`,
      `<p>${outro}</p>`,
    ].join('\n'),
  };
}
