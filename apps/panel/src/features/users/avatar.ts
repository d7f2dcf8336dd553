import { createHash } from 'node:crypto';

/**
 * A user's picture URL from the configured avatar service (`AVATAR_URL_TEMPLATE`, e.g.
 * `https://www.gravatar.com/avatar/{md5}?s=400`): `{md5}` and `{sha256}` become the hash of the trimmed,
 * lowercased email, as Gravatar and Libravatar key them. With no service configured it is `""`, so no page asks a
 * third party about the panel's users; the pages draw the initials instead.
 */
export function avatarUrl(email: string, template: string | undefined): string {
  if (!template) return '';
  const normalised = email.trim().toLowerCase();
  const hash = (algorithm: 'md5' | 'sha256') => createHash(algorithm).update(normalised).digest('hex');
  return template.replace(/\{(md5|sha256)\}/g, (_, algorithm: 'md5' | 'sha256') => hash(algorithm));
}
