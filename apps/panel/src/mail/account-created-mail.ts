import type { MailMessage } from './mailer';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The mail to someone an account was made for (invited as a subuser): their username and a link to choose a
 * password, the password reset link (Pterodactyl's AccountCreated notification).
 */
export function accountCreatedMail(input: {
  to: string;
  username: string;
  link: string;
  appName: string;
  minutes: number;
}): MailMessage {
  const intro = `You are receiving this email because an account has been created for you on ${input.appName}.`;
  const expiry = `This link will expire in ${input.minutes} minutes; after that, use "Forgot password?" on the sign-in page to get a new one.`;
  return {
    to: input.to,
    subject: `${input.appName}: Account Created`,
    text: `Hello!\n\n${intro}\n\nUsername: ${input.username}\nEmail: ${input.to}\n\nSet Up Your Account: ${input.link}\n\n${expiry}\n`,
    html: [
      '<p>Hello!</p>',
      `<p>${escapeHtml(intro)}</p>`,
      `<p>Username: ${escapeHtml(input.username)}<br>Email: ${escapeHtml(input.to)}</p>`,
      `<p><a href="${escapeHtml(input.link)}">Set Up Your Account</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
    ].join('\n'),
  };
}
