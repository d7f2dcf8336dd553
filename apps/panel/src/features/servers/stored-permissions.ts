/** A subuser's stored permission list, as stored; a damaged value counts as no permission. */
export function parsePermissions(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}
