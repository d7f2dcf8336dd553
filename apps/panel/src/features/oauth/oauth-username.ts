import { randomInt } from 'node:crypto';

/** Usernames a provider's account gets: the panel's own rule (letters, digits, `.`, `-`, `_`; alphanumeric ends). */
const MAX = 32;

/** A username from a hint (`Jane.Doe`, `jane@example.com`), or null when nothing usable is left. */
export function usernameFrom(hint: string): string | null {
  const local = hint.includes('@') ? (hint.split('@')[0] ?? '') : hint;
  const cleaned = local
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_.-]+/g, '')
    .slice(0, MAX)
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return cleaned === '' ? null : cleaned;
}

/**
 * The usernames to try for a new account, in order: each hint's, then the first with a random number (a name
 * already taken gets `jane-4821`).
 */
export function usernameCandidates(hints: readonly string[]): string[] {
  const bases = [...new Set(hints.map(usernameFrom).filter((name): name is string => name !== null))];
  const base = bases[0] ?? 'user';
  const numbered = Array.from({ length: 8 }, () => `${base.slice(0, MAX - 6)}-${randomInt(1000, 100_000)}`);
  return [...bases, ...numbered];
}
