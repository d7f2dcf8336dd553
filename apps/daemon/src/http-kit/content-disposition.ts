/**
 * `attachment; filename="…"; filename*=UTF-8''…` for a file name from the server's disk. The quoted form is
 * plain printable ASCII with `"` and `\` replaced (older browsers read only it); the RFC 5987 form carries the
 * real name percent-encoded. A name can hold anything but `/` and NUL, so nothing of it reaches the header raw:
 * no quote, CR or LF can end the parameter or the header.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'download';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
