/** Splits a file name at its extension, keeping `.tar` with a compression suffix (`a.tar.gz` → `a`, `.tar.gz`). */
export function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  // A leading dot names a hidden file (.bashrc), not an extension.
  if (dot <= 0) return { stem: name, extension: '' };
  let stem = name.slice(0, dot);
  let extension = name.slice(dot);
  if (stem.endsWith('.tar') && stem.length > 4) {
    stem = stem.slice(0, -4);
    extension = `.tar${extension}`;
  }
  return { stem, extension };
}

/**
 * The names Wings tries for a copy, in order: `name copy.ext`, `name copy 1.ext` … `name copy 50.ext`, and last
 * `namecopy.<RFC 3339 time>.ext`.
 */
export function copyNameCandidates(name: string, now: Date): string[] {
  const { stem, extension } = splitExtension(name);
  const names = [`${stem} copy${extension}`];
  for (let n = 1; n <= 50; n++) names.push(`${stem} copy ${n}${extension}`);
  names.push(`${stem}copy.${rfc3339(now)}${extension}`);
  return names;
}

/** `archive-2026-11-22T031502+0100.tar.gz`: Wings' RFC 3339 local time with the colons removed. */
export function archiveName(now: Date, extension: string): string {
  return `archive-${rfc3339(now).replaceAll(':', '')}.${extension}`;
}

/** Local time with its offset, always numeric (`+00:00` rather than `Z`). */
function rfc3339(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const offset = -now.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}` +
    `T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
