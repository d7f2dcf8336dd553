import { subuserLimits } from '@aerie/shared/subusers/subusers-bodies';
import clsx from 'clsx';
import { useState } from 'react';

/** Backgrounds for drawn initials, picked by the email so one person always gets the same colour. */
const palette = [
  'bg-sky-600',
  'bg-emerald-600',
  'bg-amber-600',
  'bg-rose-600',
  'bg-violet-600',
  'bg-teal-600',
  'bg-fuchsia-600',
  'bg-indigo-600',
] as const;

/** Up to two letters from the part of an email before the `@` (`casey.jones@…` → `CJ`, `friend@…` → `F`). */
export function initialsOf(email: string): string {
  const local = email.split('@')[0] ?? '';
  const words = local.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((word) => [...word][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

function colourOf(email: string) {
  let hash = 0;
  for (const char of email.toLowerCase()) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return palette[hash % palette.length];
}

/**
 * The picture URL at the size the pages draw (spec §9: 400). Aerie's panel puts the size in the URL already;
 * Pterodactyl's gives a bare Gravatar URL and its pages add `?s=400`, so the size is added only when missing.
 */
export function avatarSource(image: string): string {
  try {
    const url = new URL(image);
    if (!url.searchParams.has('s') && !url.searchParams.has('size'))
      url.searchParams.set('s', String(subuserLimits.avatarSize));
    return url.toString();
  } catch {
    return image;
  }
}

interface AvatarProps {
  /** The panel's avatar URL; `""` (no avatar service configured) draws the initials here instead. */
  image: string;
  email: string;
  className?: string;
}

/**
 * A user's picture, or their initials drawn locally: no request about a user leaves the panel unless it has an
 * avatar service configured. A picture that fails to load (blocked, offline service) falls back to the initials.
 * Decorative: the name or email is always shown beside it.
 */
export function Avatar({ image, email, className }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const frame = clsx('size-10 shrink-0 overflow-hidden rounded-full', className);
  if (image && failed !== image) {
    return (
      <img
        src={avatarSource(image)}
        alt=""
        aria-hidden="true"
        referrerPolicy="no-referrer"
        loading="lazy"
        className={clsx(frame, 'bg-ink-700 object-cover')}
        onError={() => setFailed(image)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initials"
      className={clsx(
        frame,
        'flex items-center justify-center text-sm font-semibold text-white select-none',
        colourOf(email),
      )}
    >
      {initialsOf(email)}
    </span>
  );
}
